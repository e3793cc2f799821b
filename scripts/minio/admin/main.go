// Command minio-admin creates MinIO users and attaches one canned policy to each, through MinIO's admin
// API (madmin-go, the library `mc admin` uses), so tests need no `mc` binary. It reads a JSON document on
// stdin:
//
//	{"users": [{"accessKey": "writer", "secretKey": "...", "policy": "writeonly",
//	            "document": {"Version": "2012-10-17", "Statement": [...]}}]}
//
// A user without "document" gets no policy (MinIO then denies every request it signs). The endpoint and
// root credentials come from MINIO_ADMIN_ENDPOINT (host:port, plain HTTP), MINIO_ROOT_USER and
// MINIO_ROOT_PASSWORD. It exits non-zero with MinIO's own message on the first failure.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/minio/madmin-go/v3"
)

type user struct {
	AccessKey string          `json:"accessKey"`
	SecretKey string          `json:"secretKey"`
	Policy    string          `json:"policy"`
	Document  json.RawMessage `json:"document"`
}

type spec struct {
	Users []user `json:"users"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "minio-admin:", err)
		os.Exit(1)
	}
}

func run() error {
	var s spec
	if err := json.NewDecoder(os.Stdin).Decode(&s); err != nil {
		return fmt.Errorf("reading the users document on stdin: %w", err)
	}
	endpoint := os.Getenv("MINIO_ADMIN_ENDPOINT")
	if endpoint == "" {
		return fmt.Errorf("MINIO_ADMIN_ENDPOINT (host:port) is not set")
	}
	client, err := madmin.New(endpoint, os.Getenv("MINIO_ROOT_USER"), os.Getenv("MINIO_ROOT_PASSWORD"), false)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, u := range s.Users {
		if err := addUser(ctx, client, u); err != nil {
			return fmt.Errorf("user %q: %w", u.AccessKey, err)
		}
	}
	return nil
}

func addUser(ctx context.Context, client *madmin.AdminClient, u user) error {
	if err := client.AddUser(ctx, u.AccessKey, u.SecretKey); err != nil {
		return fmt.Errorf("adding the user: %w", err)
	}
	if len(u.Document) == 0 {
		return nil
	}
	if u.Policy == "" {
		return fmt.Errorf("a policy document needs a policy name")
	}
	if err := client.AddCannedPolicy(ctx, u.Policy, u.Document); err != nil {
		return fmt.Errorf("adding policy %q: %w", u.Policy, err)
	}
	_, err := client.AttachPolicy(ctx, madmin.PolicyAssociationReq{Policies: []string{u.Policy}, User: u.AccessKey})
	if err != nil {
		return fmt.Errorf("attaching policy %q: %w", u.Policy, err)
	}
	return nil
}

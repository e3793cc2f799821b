// A bad input of the first hour in Go (issue 53 "Bad input"): a service key whose ExpiresAt is in the past,
// which the provider refuses at preview naming the field as the Go SDK spells it.
package main

import (
	"github.com/pulumi-langsmith/pulumi-langsmith/sdk/go/langsmith"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func expiredKey(ctx *pulumi.Context) error {
	_, err := langsmith.NewServiceKey(ctx, "ci", &langsmith.ServiceKeyArgs{
		Description: pulumi.String("ci-deploy"),
		ExpiresAt:   pulumi.String("2020-01-01T00:00:00Z"),
	})
	return err
}

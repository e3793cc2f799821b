//go:build tools

// Package tools records the language hosts' main packages as dependencies so that `go mod tidy` keeps
// every module they need in go.mod/go.sum; it is never compiled (the build tag is never set).
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)

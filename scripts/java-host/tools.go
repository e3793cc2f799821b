//go:build tools

// Package tools records the Java language host's main package as a dependency so that `go mod tidy` keeps
// every module it needs in go.mod/go.sum; it is never compiled (the build tag is never set).
package tools

import _ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"

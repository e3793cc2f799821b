// The entry point of go-quickstart: `pulumi up` builds and runs it through Pulumi's Go language host. What it
// declares is program.go's `program`, kept in a file of its own so that tests/e2e/go.test.ts can run the same
// function inline through the Automation API.
package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

func main() {
	pulumi.Run(program)
}

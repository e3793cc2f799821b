// The wrapper module of macho-sign (main.go), the ad-hoc signer of the darwin archives of `npm run release`.
module pulumi-langsmith/macho-sign

go 1.25.11

require github.com/blacktop/go-macho v1.1.296

require github.com/blacktop/go-dwarf v1.1.0 // indirect

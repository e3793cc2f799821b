#!/usr/bin/env bash
# Runs a command with scripts/env.sh applied (used by the npm scripts).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
exec "$@"

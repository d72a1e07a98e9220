#!/usr/bin/env bash
# LineUp's backup: one custom-format pg_dump, readable only by its owner, written whole or not at all.
#
#   backup.sh [DIRECTORY]          (default /var/backups/lineup; prints the dump's path)
#
# The connection comes from libpq's own files, never from a URL or the command line (where `ps` and
# the shell's history would show a password): the service `lineup` (PGSERVICE to name another) in
# ~/.pg_service.conf, and its password in ~/.pgpass, mode 0600 (docs/operations.md § 8).
# --no-password: a missing or wrong password fails at once instead of waiting for a prompt.
set -euo pipefail
umask 077                                            # the dump and its directory: owner only
dir="${1:-/var/backups/lineup}"
mkdir -p "$dir"
target="$dir/lineup-$(date -u +%Y-%m-%dT%H%M%SZ).dump"
trap 'rm -f "$target.partial"' EXIT                  # a failed dump leaves nothing that looks like one
pg_dump --format=custom --no-password --file="$target.partial" "service=${PGSERVICE:-lineup}"
pg_restore --list "$target.partial" >/dev/null       # a dump that does not read back is no backup
sync "$target.partial"
mv "$target.partial" "$target"
trap - EXIT
echo "$target"

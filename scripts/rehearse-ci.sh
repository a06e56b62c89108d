#!/usr/bin/env bash
# `npm run ci:rehearse [-- <commit>]`: CI's run as a fresh machine would make it (issue 39), to run
# before pushing. A clean clone of the commit (default: main) in a new folder, then `.ci/run` with:
#   - no caches from earlier runs: a new HOME (so a new npm cache and fontconfig cache), Node
#     installed anew into the clone's own folder (NODE_CACHE_DIR), no build left from anything;
#   - only the fonts `.ci/run` installs: FONTCONFIG_FILE lists DejaVu (what a bare Debian has) and
#     Liberation 2 (what .ci/run installs), whatever else this machine has (decision 039);
#   - the system's Node 20 first on the PATH, CI=true, no standard input, nothing else inherited
#     from this shell but the locale and the CA bundle.
# What a rehearsal cannot undo: system packages installed by an earlier run stay installed (apt
# finds them and installs nothing); a brand-new machine pays their download on top (about a minute
# here). Prints the time, the core count and npm test's counts; exits with .ci/run's status. The
# folder is kept (its path printed) when the run fails, removed when it passes.
set -euo pipefail

ref="${1:-main}"

repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
work="$(mktemp -d "${TMPDIR:-/tmp}/ci-rehearsal.XXXXXX")"
chmod 755 "$work" # the start test runs the server as a service account, which must read the clone
git clone --quiet --no-hardlinks "$repo" "$work/checkout"
git -C "$work/checkout" checkout --quiet --detach "$ref"
mkdir -p "$work/home"

# The system Node (20 on this kind of machine) first, as on a fresh machine: every folder of the
# caller's PATH that holds another node is left out.
path=""
IFS=: read -r -a folders <<<"$PATH"
for folder in "${folders[@]}"; do
  if [ -x "$folder/node" ] && [ "$folder" != /usr/bin ] && [ "$folder" != /bin ] && [ "$folder" != /usr/local/bin ]; then
    continue
  fi
  path="${path:+$path:}$folder"
done

commit="$(git -C "$work/checkout" rev-parse --short HEAD)"
log="$work/ci.log"
echo "Rehearsing CI on $commit in $work ($(nproc) cores; the system's Node $(PATH="$path" node --version) first on the PATH, as on a fresh machine, until .ci/run installs the one .nvmrc names)."
echo "Log: $log"
start=$SECONDS
status=0
env -i \
  HOME="$work/home" \
  PATH="$path" \
  LANG="${LANG:-C.UTF-8}" \
  USER="$(id -un)" \
  ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"} \
  CI=true \
  NODE_CACHE_DIR="$work/node" \
  FONTCONFIG_FILE="$work/checkout/test/fonts/liberation.conf" \
  bash "$work/checkout/.ci/run" </dev/null >"$log" 2>&1 || status=$?
elapsed=$((SECONDS - start))

# vitest's summary lines of `npm test` (the first "Tests" line; the Node 22 smoke has its own).
counts="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +(Test Files|Tests) ' | head -2 | tr -s ' ' | paste -sd ';' -)"
# The Node .ci/run put first on the PATH and ran every step on (its "==> Node" step prints it): the
# system Node above is only where a fresh machine starts.
ran_on="$(grep -m1 -oE '^node v[0-9.]+' "$log" || echo 'node: not printed')"
echo "Commit $commit: .ci/run exited $status after ${elapsed} s on $(nproc) cores, on ${ran_on} (.nvmrc: $(tr -d '[:space:]' < "$work/checkout/.nvmrc")). npm test: ${counts:-no summary}"
if [ "$status" -ne 0 ]; then
  echo "Kept: $work"
else
  rm -rf "$work"
fi
exit "$status"

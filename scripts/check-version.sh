#!/usr/bin/env bash
# One version everywhere: the VERSION file at the root is the source; these
# must name the same string:
#   - openapi.yaml's info.version,
#   - the image tag of deploy/kubernetes/kustomization.yaml,
#   - the default of deploy/Dockerfile's `ARG VERSION` (the image's
#     org.opencontainers.image.version label),
#   - wasm/js/package.json's version (the Python package reads VERSION),
#   - with BINARY given: `BINARY --version`, which must print
#     `notification-text VERSION (REVISION)`.
# Usage: scripts/check-version.sh [BINARY]  (make check-version, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

version="$(tr -d ' \t\r\n' <VERSION)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] \
  || fail "VERSION holds '$version', not a semantic version"

# info.version: the first `version:` line indented under the top-level `info:`.
openapi="$(awk '/^info:/ { inside = 1; next } /^[^ ]/ { inside = 0 } inside && /^  version:/ { print $2; exit }' openapi.yaml)"
[ "$openapi" = "$version" ] || fail "openapi.yaml info.version is '$openapi', VERSION is '$version'"

tag="$(sed -n 's/^[[:space:]]*newTag:[[:space:]]*//p' deploy/kubernetes/kustomization.yaml | tr -d '"'"'"' ')"
[ "$tag" = "$version" ] || fail "deploy/kubernetes/kustomization.yaml newTag is '$tag', VERSION is '$version'"

mapfile -t docker_versions < <(sed -n 's/^ARG VERSION=//p' deploy/Dockerfile)
[ "${#docker_versions[@]}" -ge 1 ] || fail "deploy/Dockerfile declares no ARG VERSION=…"
for value in "${docker_versions[@]}"; do
  [ "$value" = "$version" ] || fail "deploy/Dockerfile ARG VERSION defaults to '$value', VERSION is '$version'"
done
grep -q 'org.opencontainers.image.version="${VERSION}"' deploy/Dockerfile \
  || fail "deploy/Dockerfile does not label the image with \${VERSION}"

package="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' wasm/js/package.json)"
[ "$package" = "$version" ] || fail "wasm/js/package.json version is '$package', VERSION is '$version'"

if [ $# -ge 1 ]; then
  printed="$("$1" --version)"
  [[ "$printed" =~ ^notification-text\ ${version//./\\.}\ \(([0-9a-f]{12}|unknown)\)$ ]] \
    || fail "'$1 --version' printed '$printed', not 'notification-text $version (REVISION)'"
fi

echo "check-version: OK, $version in VERSION, openapi.yaml, the kustomization, the Dockerfile, wasm/js/package.json${1:+ and $1 --version}"

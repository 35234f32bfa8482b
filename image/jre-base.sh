#!/bin/sh
# Makes a JRE 17 base for the image without a registry: Debian's openjdk-17-jre-headless in a root
# file system built by mmdebstrap from Debian's packages, as a docker-archive Jib reads. Prints the
# value of -Dhotsched.image.base that names it. Kept under ~/.cache/hotsched (HOTSCHED_CACHE) and
# reused until this script changes: delete the file to build it anew, with Debian's updates (about
# 2 minutes; a second run takes none).
# Needs: apt-get install -y mmdebstrap podman
set -eu
home=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
cache=${HOTSCHED_CACHE:-${XDG_CACHE_HOME:-$home/.cache}/hotsched}
suite=bookworm
recipe=$(sha256sum "$0" | cut -c1-12)
base=$cache/jre17-base-$suite-$recipe.tar
if [ ! -s "$base" ]; then
  rm -f "$cache"/jre17-base-*.tar
  for tool in mmdebstrap podman; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "image/jre-base.sh: $tool not found; install it: apt-get install -y mmdebstrap podman runc" >&2
      exit 1
    }
  done
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/base.XXXXXX")
  name=localhost/hotsched-jre17-base:$(basename "$work" | tr 'A-Z' 'a-z' | tr -cd 'a-z0-9')
  trap 'rm -rf "$work"; podman rmi --force "$name" >/dev/null 2>&1 || true' EXIT
  # the docs are not needed; leaving out more (man pages) breaks the JRE's post-install
  mmdebstrap --quiet --variant=apt --include=openjdk-17-jre-headless \
    --dpkgopt='path-exclude=/usr/share/doc/*' "$suite" "$work/rootfs.tar"
  # podman turns the file system into an image (with a PATH, which a plain tree lacks) and writes
  # it in the docker-archive format that Jib's tar:// base takes
  podman import --quiet --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$work/rootfs.tar" "$name" >/dev/null
  podman save --quiet --format docker-archive -o "$work/base.tar" "$name"
  mv "$work/base.tar" "$base"
fi
# the name the build looks for: with it present, mvn -B verify builds and runs the image too
ln -sf "$(basename "$base")" "$cache/jre17-base.tar"
echo "tar://$base"

#!/usr/bin/env bash
# Builds stand-in base images for docker-compose.yml from Debian's own packages, for machines
# where Docker Hub cannot be reached but deb.debian.org can. They are tagged civitas-offline/*,
# never with the official names; deploy/offline/images.env points the compose file at them:
#   sudo deploy/offline/build-images.sh          # once (debootstrap needs root)
#   docker-compose --env-file deploy/offline/images.env up --build
# Where outgoing HTTPS goes through a proxy with its own certificate authority (pip inside the app
# build then fails with CERTIFICATE_VERIFY_FAILED), EXTRA_CA_CERTS=<file.crt>[:<file.crt>...] adds
# those CA certificates to the Python stand-in's trust store. REBUILD_ROOTFS=1 imports the Debian
# root file system again; ROOTFS=<dir> keeps it in <dir> (and reuses a complete debootstrap found
# there) instead of a temporary directory.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE=bookworm
BASE=civitas-offline/debian:$SUITE
DOCKER="${DOCKER:-docker}"

if [[ "${REBUILD_ROOTFS:-0}" == 1 ]] || ! "$DOCKER" image inspect "$BASE" >/dev/null 2>&1; then
    command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
    [[ "$(id -u)" == 0 ]] || { echo "debootstrap needs root" >&2; exit 1; }
    if [[ -n "${ROOTFS:-}" ]]; then
        rootfs="$ROOTFS"
    else
        rootfs="$(mktemp -d /tmp/civitas-rootfs.XXXXXX)"
        rootfs_tmp="$rootfs"
        trap 'rm -rf "$rootfs_tmp"' EXIT
    fi
    if [[ -f "$rootfs/etc/debian_version" && -x "$rootfs/usr/bin/apt-get" && ! -d "$rootfs/debootstrap" ]]; then
        echo "== reusing the debootstrap in $rootfs"
    else
        echo "== debootstrap --variant=minbase $SUITE $MIRROR"
        debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR"
    fi
    # What a container base needs and Debian's official image also does: no services started
    # by package scripts, no documentation or translations kept, no package caches.
    printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d"
    chmod 755 "$rootfs/usr/sbin/policy-rc.d"
    cat > "$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
    printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
        > "$rootfs/etc/apt/apt.conf.d/90no-recommends"
    # No binary package caches (tens of MB, rebuilt by apt when needed).
    printf 'Dir::Cache::pkgcache "";\nDir::Cache::srcpkgcache "";\n' > "$rootfs/etc/apt/apt.conf.d/90no-pkgcache"
    find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
    rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
    find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
    echo "== docker import -> $BASE"
    tar -C "$rootfs" -c . | "$DOCKER" import --change 'CMD ["/bin/bash"]' \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$BASE"
fi

# Each image is built from a copy of this directory plus extra-ca/ (the EXTRA_CA_CERTS, if any).
context="$(mktemp -d /tmp/civitas-offline-context.XXXXXX)"
trap 'rm -rf "$context" ${rootfs_tmp:-}' EXIT
cp "$HERE"/*.Dockerfile "$HERE"/*.sh "$context"/
mkdir "$context/extra-ca"
IFS=: read -r -a extra_ca <<< "${EXTRA_CA_CERTS:-}"
for cert in "${extra_ca[@]}"; do
    if [[ -n "$cert" ]]; then
        cp "$cert" "$context/extra-ca/$(basename "${cert%.*}").crt"
    fi
done

for name in python postgres redis nginx; do
    case "$name" in
        python) tag=3.11 ;;
        postgres) tag=15 ;;
        redis) tag=7 ;;
        nginx) tag=bookworm ;;
    esac
    echo "== docker build -> civitas-offline/$name:$tag"
    "$DOCKER" build --build-arg "BASE=$BASE" -f "$HERE/$name.Dockerfile" -t "civitas-offline/$name:$tag" "$context"
done
"$DOCKER" images 'civitas-offline/*'

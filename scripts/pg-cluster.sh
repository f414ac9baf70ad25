# Sourced by the scripts that need a throwaway PostgreSQL cluster: made with initdb in a
# temporary directory and started with pg_ctl as an unprivileged user (the `postgres` user
# when run as root), listening on a Unix socket only (no TCP port); stopped and deleted when
# the script exits. Sets `pg_dir` (the socket's directory), `pg_bin` and `pg_ctl_command`
# (pg_ctl with its options, as one string for `eval`, to stop and start it again).
#
#   pg_cluster_start [EXTRA_SERVER_OPTIONS]

pg_cluster_start() {
    pg_bin=""
    for candidate in /usr/lib/postgresql/*/bin; do
        [ -x "$candidate/initdb" ] && pg_bin=$candidate
    done
    if [ -z "$pg_bin" ]; then
        echo "no PostgreSQL server (Debian's postgresql package)" >&2
        exit 1
    fi
    pg_dir=$(mktemp -d /tmp/salpakan-pg.XXXXXX)
    chmod 0755 "$pg_dir"
    pg_as_owner=()
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "no postgres user" >&2; exit 1; }
        chown postgres: "$pg_dir"
        pg_as_owner=(setpriv --reuid=postgres --regid=postgres --init-groups --)
    fi
    trap pg_cluster_stop EXIT
    "${pg_as_owner[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U salpakan --auth=trust -E UTF8 \
        --no-sync > "$pg_dir/initdb.log"
    local options="-k $pg_dir -c listen_addresses= -c max_connections=300 ${1:-}"
    pg_ctl_command="${pg_as_owner[*]} $pg_bin/pg_ctl -D $pg_dir/data -l $pg_dir/server.log -o '$options'"
    eval "$pg_ctl_command -w start" > /dev/null
    echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $pg_dir"
}

pg_cluster_stop() {
    "${pg_as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
}

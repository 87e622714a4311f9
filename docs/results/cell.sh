# Sourced by result scripts: cell NAME TOURNAMENT-ARGS... plays one duplicate tournament into "$out/NAME" (the
# script sets $out), skipped when its summary.md exists, so that a script stopped midway resumes where it was.
cell() {
    local dir="$out/$1"
    shift
    [ -f "$dir/summary.md" ] && return 0
    rm -rf "${dir:?}"
    spades tournament --workers 2 --no-progress --no-plot --out "$dir" "$@"
}

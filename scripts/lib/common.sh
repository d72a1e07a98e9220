# Shared by scripts/run and scripts/test: a project virtualenv kept in step with the pins.
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${LINEUP_VENV:-$ROOT/.venv}"
PY="$VENV/bin/python"

log() { printf '\033[1m[lineup]\033[0m %s\n' "$*" >&2; }

# ensure_venv REQUIREMENTS_FILE: create the venv if needed and (re)install when the pins changed.
ensure_venv() {
    local requirements="$1" stamp digest
    if [ ! -x "$PY" ]; then
        log "creating virtualenv in $VENV"
        python3 -m venv "$VENV"
        "$PY" -m pip install --quiet --upgrade pip
    fi
    digest="$(cat "$ROOT"/requirements*.txt | sha256sum | cut -c1-16)"
    stamp="$VENV/.lineup-installed-$(basename "$requirements" .txt)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
        log "installing $(basename "$requirements") into $VENV"
        "$PY" -m pip install --quiet -r "$ROOT/$requirements"
        echo "$digest" > "$stamp"
    fi
}

# warn_without_cjk_font: a Chinese-speaking person (by the locale: LC_ALL, LC_MESSAGES, LANG or
# LANGUAGE) on a machine whose fontconfig knows no Chinese font sees every Chinese glyph of the
# page as a box, and nothing else says why: say so once, in both languages (the Chinese line is
# boxes itself in such a terminal; the English one and the command are not). Silent where there
# is no fontconfig (macOS, Windows: they ship CJK fonts).
warn_without_cjk_font() {
    case "${LC_ALL:-${LC_MESSAGES:-${LANG:-}}}:${LANGUAGE:-}" in
      zh*|*:zh*)
        if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]; then
          echo "注意：这台机器没有安装中文字体，页面上的中文会显示成方框。请安装一个，例如：sudo apt-get install fonts-noto-cjk" >&2
          echo "Note: no Chinese (CJK) font is installed, so Chinese text shows as boxes. Install one, e.g. sudo apt-get install fonts-noto-cjk" >&2
        fi
        ;;
    esac
}

# shellcheck shell=bash
# Shared by scripts/play and scripts/test (sourced, not run): the virtualenv, the project install and
# the Babel catalogs. Every function is idempotent and cheap when there is nothing to do.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
PY="$VENV/bin/python"
INSTALL_STAMP="$VENV/.mafia-table-installed"

step() {
    printf '\n==> %s\n' "$*"
}

ensure_venv() {
    if [ -x "$PY" ] && "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        return
    fi
    step "Creating .venv (python3 -m venv)"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
        echo "error: python3 >= 3.11 is needed, found $(python3 --version 2>&1)" >&2
        return 1
    }
    python3 -m venv --clear "$VENV"
    rm -f "$INSTALL_STAMP"
}

# What an install depends on: pyproject.toml and which top-level packages exist (an editable install
# maps only the packages that were there when it ran).
install_fingerprint() {
    (cd "$REPO_ROOT" && { cat pyproject.toml; ls -d engine webgame 2>/dev/null; } | "$PY" -c \
        'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
}

# install_project [EXTRAS]: pip install -e ".[EXTRAS]" unless the same install already ran.
# A stamp with the dev extras also satisfies a plain install.
install_project() {
    local extras="${1:-}" fingerprint target
    fingerprint="$(install_fingerprint)"
    if [ -f "$INSTALL_STAMP" ] && "$PY" -m pip --version >/dev/null 2>&1; then
        if grep -qxF "$fingerprint ${extras:-none}" "$INSTALL_STAMP" \
            || { [ -z "$extras" ] && grep -q "^$fingerprint " "$INSTALL_STAMP"; }; then
            step "Project already installed in .venv (pyproject.toml unchanged)"
            return
        fi
    fi
    target="."
    [ -n "$extras" ] && target=".[$extras]"
    step "Installing the project into .venv (pip install -e '$target')"
    (cd "$REPO_ROOT" && "$PY" -m pip install --quiet --disable-pip-version-check -e "$target")
    echo "$fingerprint ${extras:-none}" >"$INSTALL_STAMP"
}

# Compile locales/<lang>/LC_MESSAGES/messages.po into .mo files, when there are any.
compile_catalogs() {
    if ! compgen -G "$REPO_ROOT/locales/*/LC_MESSAGES/messages.po" >/dev/null; then
        return
    fi
    step "Compiling translations (pybabel compile -d locales -D messages)"
    (cd "$REPO_ROOT" && "$VENV/bin/pybabel" -q compile -d locales -D messages)
}

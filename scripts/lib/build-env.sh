# Sourced by scripts/build.sh and scripts/cross/build-aarch64.sh.
#
# build_environment ROOT
#   Waits for any other build on this machine (2 cores: one at a time, on
#   the lock file descriptor 9, held until the calling script exits), then
#   shares ccache between the worktrees (paths relative to ROOT).
build_environment() {
  exec 9>"${TMPDIR:-/tmp}/executor-studio-build.lock"
  flock 9
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$1}
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
}

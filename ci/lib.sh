# shellcheck shell=bash
# Common paths and helpers for the ci/ scripts. Sourced, never run.
#
# Environment knobs (all optional):
#   BPFEXC_WORK     work dir outside the repo (default ~/.cache/bpfexc)
#   BPFEXC_BRANCH   branch our overlays are committed on
#   BASELINE=1      act on the pristine tree instead of our branch
#   BPFEXC_TARBALL_DIR  directory holding linux-source-*.tar.xz files to use
#                   instead of the Debian package (tests use a fake tree)

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WORK=${BPFEXC_WORK:-$HOME/.cache/bpfexc}
BRANCH=${BPFEXC_BRANCH:-bpf-exceptions-cleanup}
# shellcheck source=ci/base.env
. "$REPO/ci/base.env"
KSRC=$WORK/linux            # git repo: pristine commits + our branch
KSRC_BASE=$WORK/linux-base  # worktree of the pristine tag (baseline builds)

die() { echo "error: $*" >&2; exit 1; }
note() { echo ">>> $*" >&2; }

# Git refuses '~' in tag names; Debian versions use it.
base_tag() { echo "base/${1//\~/_}"; }

is_baseline() { [ "${BASELINE:-0}" = 1 ]; }

# The source tree a build of this kind uses.
build_src() { if is_baseline; then echo "$KSRC_BASE"; else echo "$KSRC"; fi; }

# A suffix that keeps pristine and patched builds apart.
build_kind() { if is_baseline; then echo baseline; else echo bpfexc; fi; }

kgit() { git -C "$KSRC" -c user.name=bpfexc -c user.email=bpfexc@localhost \
	-c commit.gpgsign=false "$@"; }

FLAVOURS="small full hardened"
check_flavour() {
	case " $FLAVOURS " in *" $1 "*) ;; *) die "unknown flavour '$1' (known: $FLAVOURS)" ;; esac
}

# Kernel build dir of flavour $1 for the current kind (ours or baseline).
kbuild_dir() { echo "$WORK/build/$1-$(build_kind)"; }

# Our kernel says so in 'uname -r'; the baseline says it is pristine.
localversion() { if is_baseline; then echo -pristine; else echo -bpfexc; fi; }

# make in the kernel tree with the reproducible, ccache'd settings.
# hardened is built with clang-19 (kCFI is clang-only); Debian suffixes
# the LLVM binaries, so LLVM=-19 (clang-19, ld.lld-19, llvm-ar-19, ...).
kmake() {
	local flavour=$1 cc=(CC="ccache gcc" HOSTCC="ccache gcc"); shift
	[ "$flavour" != hardened ] ||
		cc=(LLVM=-19 CC="ccache clang-19" HOSTCC="ccache clang-19")
	make -C "$(build_src)" O="$(kbuild_dir "$flavour")" ARCH=x86_64 "${cc[@]}" \
		LOCALVERSION="$(localversion)" \
		KBUILD_BUILD_TIMESTAMP="2024-02-01 00:00:00 UTC" \
		KBUILD_BUILD_USER=bpfexc KBUILD_BUILD_HOST=bpfexc "$@"
}

# Make sure the tree a build uses exists: our branch, or the baseline
# worktree at the pristine tag.
ensure_src() {
	local tag
	tag=$(base_tag "$BASE_VERSION")
	kgit rev-parse -q --verify "refs/tags/$tag" >/dev/null ||
		die "base $BASE_VERSION is not in $KSRC: run 'just base' first"
	if is_baseline; then
		[ -e "$KSRC_BASE/.git" ] ||
			kgit worktree add -q --detach "$KSRC_BASE" "$tag"
		[ "$(git -C "$KSRC_BASE" rev-parse HEAD)" = "$(kgit rev-parse "$tag^{commit}")" ] ||
			git -C "$KSRC_BASE" checkout -q --detach "$tag"
	else
		[ "$(kgit symbolic-ref -q --short HEAD)" = "$BRANCH" ] ||
			die "$KSRC is not on $BRANCH: run 'just branch' first"
	fi
}

# The kind a flavour's selftests and results are kept under: hardened's
# test_progs is built against its own vmlinux BTF (lockdep and KASAN
# change the types), and so is full's (whose whole suite would also
# overwrite small's selection); small has the plain kind. $2: the kind
# (default the current one).
flavour_kind() { local k=${2:-$(build_kind)}; [ "$1" = small ] || k=$k-$1; echo "$k"; }

# test_progs build output for kind $1 (default the current one); shared
# into the guest.
selftests_dir() { echo "$WORK/selftests/${1:-$(build_kind)}/out"; }

# Default test selection: the exception suites, and the one token subtest
# that loads a throwing program with a BPF token (constant blinding).
# shellcheck disable=SC2034 # used by the scripts that source this
DEFAULT_TESTS=exceptions,token/exceptions_blinding
# What DEFAULT_TESTS must run, or ci/test-summary fails the run: every
# test whose name contains "exceptions" (-t matches by substring: the
# test_NAME functions of prog_tests/exceptions*.c) and token's subtest.
# ci/test-summary-fixtures checks the list against tools-overlay.
# shellcheck disable=SC2034
DEFAULT_TESTS_EXPECTED="exceptions exceptions_cleanup exceptions_cleanup_kinds
	exceptions_cleanup_safety exceptions_reach token/exceptions_blinding"

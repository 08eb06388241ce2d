# The build-boot-test loop for the BPF exceptions resource-cleanup work.
# Every recipe is a small script in ci/; BASELINE=1 makes build,
# selftests, vm-run and vm-test act on the pristine kernel instead.
set positional-arguments

# list the recipes
default:
    @just --list

# install the packages, linux-source and just (root, Debian 12)
setup:
    ci/setup

# extract the pinned linux-source into $BPFEXC_WORK as a git repo (no-op when present)
base:
    ci/base-tree

# commit the overlays onto the base as branch bpf-exceptions-cleanup
branch: base
    ci/overlay-branch

# print the overlays as a diff against the pristine base (args go to git diff)
diff *args: base
    ci/overlay-diff "$@"

# start editing kernel-tree files: copy them into the overlays, record pristine sha256
edit +paths: base
    ci/overlay-edit "$@"

# move the overlays onto another linux-source version by 3-way merge
rebase version: base
    ci/overlay-rebase "$@"

# run checkpatch --strict on the overlay diff
checkpatch: base
    ci/checkpatch

# configure and build the kernel (flavour: small, full or hardened)
build flavour='small': base
    if [ "${BASELINE:-0}" != 1 ]; then ci/overlay-branch; fi
    ci/kernel-build "$1"

# build the guest image from mkosi.conf (only when it changed)
image:
    ci/image-build

# build test_progs: just selftests [--flavour F] [TESTS] (comma list; 'full' for all)
selftests *args:
    ci/selftests-build "$@"

# boot the kernel and run a command: just vm-run [--share DIR] -- CMD...
vm-run *args: image
    ci/vm-run "$@"

# interactive shell in the guest
shell: build image
    ci/vm-run --interactive

# build what is stale and run test_progs -t TESTS in the guest: just vm-test [--flavour F] [TESTS]
vm-test *args:
    ci/vm-test "$@"

# N throws (EXC_SOAK, default 100000) per throwing program of
# exceptions_cleanup_kinds on the hardened kernel, then kmemleak and
# lockdep: just soak [task,socket,...]
soak *args:
    ci/soak "$@"

# the whole BPF selftest suite (test_progs, test_progs-no_alu32,
# test_verifier) on pristine and ours, full flavour: the table of every
# difference; hours under TCG, not in CI
regress *args:
    ci/regress "$@"

# allocation failures on the hardened kernel: every throwing program
# loaded with its allocations failing, run-time cases loaded so, and no
# allocation under bpf_throw: just faults [SITES [ROUNDS]]
faults *args:
    ci/faults "$@"

# what CI runs: the tooling's own tests, then vm-test on the small and the
# hardened flavour; the last line sums both
test:
    ci/test-tooling
    ci/vm-test-flavours small hardened

# verifier cost A/B (pristine vs ours): veristat over TESTS' objects in guests
veristat tests='exceptions':
    ci/veristat-compare "$1"

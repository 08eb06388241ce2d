# shellcheck shell=bash
# Overlay bookkeeping shared by overlay-branch, -diff, -rebase and -edit.
# kernel-overlay/ and tools-overlay/ both mirror kernel-tree paths.
# ci/pristine.sha256 records, for every overlaid file that exists in the
# base, the sha256 of the pristine content it was derived from.

RECORD=$REPO/ci/pristine.sha256
OVERLAYS="kernel-overlay tools-overlay"

# Overlay file paths, relative to the kernel tree, one per line.
overlay_paths() {
	local o
	for o in $OVERLAYS; do
		[ -d "$REPO/$o" ] || continue
		(cd "$REPO/$o" && find . -type f ! -name .gitkeep -printf '%P\n')
	done | sort
}

# Which overlay dir holds path $1.
overlay_file() {
	local o
	for o in $OVERLAYS; do
		[ -f "$REPO/$o/$1" ] && { echo "$REPO/$o/$1"; return; }
	done
	return 1
}

# The overlay dir a new path belongs to.
overlay_dir_for() {
	case $1 in tools/*) echo tools-overlay ;; *) echo kernel-overlay ;; esac
}

recorded_sha() { awk -v p="$1" '$2 == p { print $1 }' "$RECORD" 2>/dev/null; }

# sha256 of path $2 in commit $1, empty when absent there.
tree_sha() {
	kgit cat-file -e "$1:$2" 2>/dev/null || return 0
	kgit cat-file blob "$1:$2" | sha256sum | cut -d' ' -f1
}

set_record() {
	local path=$1 sha=$2 tmp
	tmp=$(mktemp)
	{ grep -v -F "  $path" "$RECORD" 2>/dev/null || true
	  [ -z "$sha" ] || printf '%s  %s\n' "$sha" "$path"; } |
		sort -k2 >"$tmp"
	mv "$tmp" "$RECORD"
}

# Refuse overlays that do not apply to base $1: a path listed twice, a
# pristine file without a record or whose content moved, a conflict marker.
check_overlays() {
	local tag=$1 p have want dup
	dup=$(overlay_paths | uniq -d)
	[ -z "$dup" ] || die "in both overlays: $dup"
	while read -r p; do
		[ -n "$p" ] || continue
		case $p in /*|*../*) die "bad overlay path: $p" ;; esac
		if grep -q '^<<<<<<< ' "$(overlay_file "$p")"; then
			die "$p: unresolved conflict markers in the overlay"
		fi
		have=$(tree_sha "$tag" "$p")
		want=$(recorded_sha "$p")
		[ -n "$have" ] || continue	# a new file
		[ -n "$want" ] || die "$p exists in the base but has no pristine record in ci/pristine.sha256; start edits with 'just edit $p'"
		[ "$have" = "$want" ] || die "$p: the pristine file no longer matches ci/pristine.sha256 (recorded $want, base $tag has $have): the base changed underneath; use 'just rebase'"
	done < <(overlay_paths)
}

# Write a tree object: base $1 with every overlay file on top. Prints it.
overlay_tree() {
	local tag=$1 idx p f mode blob
	idx=$(mktemp)
	rm -f "$idx"
	GIT_INDEX_FILE=$idx kgit read-tree "$tag"
	while read -r p; do
		[ -n "$p" ] || continue
		f=$(overlay_file "$p")
		mode=100644
		[ -x "$f" ] && mode=100755
		blob=$(kgit hash-object -w --path="$p" "$f")
		GIT_INDEX_FILE=$idx kgit update-index --add --cacheinfo "$mode,$blob,$p"
	done < <(overlay_paths)
	GIT_INDEX_FILE=$idx kgit write-tree
	rm -f "$idx"
}

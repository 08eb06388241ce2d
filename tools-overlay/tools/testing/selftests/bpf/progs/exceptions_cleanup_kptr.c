// SPDX-License-Identifier: GPL-2.0
/* An nf_conn has a cleanup destructor, for bpf_throw, but no kptr
 * destructor: a map value may not hold one, so this object must not load.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>

struct ct_val {
	struct nf_conn __kptr * ct;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct ct_val);
} cts SEC(".maps");

SEC("tc")
int use_cts(struct __sk_buff *ctx)
{
	return bpf_map_lookup_elem(&cts, &(int){0}) != NULL;
}

char _license[] SEC("license") = "GPL";

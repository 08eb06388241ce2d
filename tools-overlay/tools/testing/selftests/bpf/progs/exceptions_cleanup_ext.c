// SPDX-License-Identifier: GPL-2.0
/* An extension (freplace) of exc_global_work() in
 * progs/exceptions_cleanup_safety.c's ext_target that throws holding a
 * record of its own ring buffer (prog_tests/exceptions_cleanup_safety.c,
 * freplace).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>

#include "bpf_misc.h"
#include "bpf_experimental.h"
#include "exceptions_cleanup.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb_ext SEC(".maps");

int fell_through;

SEC("freplace/exc_global_work")
int ext_throw(struct __sk_buff *skb)
{
	long *r = bpf_ringbuf_reserve(&rb_ext, 8, 0);

	if (!r)
		return 0;
	bpf_throw(VAL);
	fell_through = 1;
	bpf_ringbuf_discard(r, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";

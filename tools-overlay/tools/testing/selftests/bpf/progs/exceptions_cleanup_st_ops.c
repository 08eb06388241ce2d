// SPDX-License-Identifier: GPL-2.0
/* A struct_ops program that throws while it holds an object, and the
 * observers that see the object taken and dropped
 * (prog_tests/exceptions_cleanup_safety.c, struct_ops).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf_misc.h"
#include "bpf_experimental.h"
#include "exceptions_cleanup.h"

struct st_obj {
	long v;
};

int pid;		/* the test's: the observers count only its calls */
int fell_through;
int news, drops;
u64 taken, dropped;

SEC("struct_ops/test_1")
int BPF_PROG(st_ops_throw, struct bpf_dummy_ops_state *state)
{
	struct st_obj *o = bpf_obj_new(typeof(*o));

	if (!o)
		return 0;
	bpf_throw(VAL);
	fell_through = 1;
	bpf_obj_drop(o);
	return 0;
}

SEC(".struct_ops")
struct bpf_dummy_ops dummy_throw = {
	.test_1 = (void *)st_ops_throw,
};

static bool mine(void)
{
	return bpf_get_current_pid_tgid() >> 32 == pid;
}

SEC("fexit/bpf_obj_new_impl")
int BPF_PROG(obs_new, u64 local_type_id, void *meta, void *ret)
{
	if (mine() && ret) {
		news++;
		taken = (u64)ret;
	}
	return 0;
}

SEC("fentry/__bpf_obj_drop_impl")
int BPF_PROG(obs_drop, void *p, const struct btf_record *rec, bool percpu)
{
	if (mine()) {
		drops++;
		dropped = (u64)p;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";

// SPDX-License-Identifier: GPL-2.0
/* The verifier does not descend into global subprogs, they are verified on
 * their own. So when a global subprog may throw, directly or through further
 * calls, the verifier explores the path on which its call throws, and checks
 * the references and locks held across the call as at a direct bpf_throw:
 * references kept in a callee-saved register or on the stack are released
 * by bpf_throw, locks are still rejected.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>

#include "bpf_misc.h"
#include "bpf_experimental.h"

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

struct node_data {
	long key;
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} ringbuf SEC(".maps");

struct lock_elem {
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct lock_elem);
} locks SEC(".maps");

/* Throws on an empty packet, so the verifier must assume it may throw */
__noinline int global_throw(struct __sk_buff *ctx)
{
	if (!ctx->len)
		bpf_throw(0);
	return 0;
}

/* May throw only through another global subprog */
__noinline int global_throw_2(struct __sk_buff *ctx)
{
	return global_throw(ctx) + 1;
}

/* A static subprog that may throw through the global subprog it calls */
static __noinline int static_calls_global(struct __sk_buff *ctx)
{
	return global_throw(ctx) + 1;
}

/* Reaches the same throwing subprog from two call sites */
__noinline int global_throw_twice(struct __sk_buff *ctx)
{
	return static_calls_global(ctx) + static_calls_global(ctx);
}

static __noinline int static_throw(struct __sk_buff *ctx)
{
	if (!ctx->len)
		bpf_throw(0);
	return 0;
}

/* May throw only through the static subprog it calls */
__noinline int global_via_static(struct __sk_buff *ctx)
{
	return static_throw(ctx) + 1;
}

/* Does not throw, though the programs calling it may */
__noinline int global_nothrow(struct __sk_buff *ctx)
{
	return ctx->len + 1;
}

static __noinline int loop_cb_throw(u32 index, void *data)
{
	bpf_throw(0);
	return 0;
}

/* bpf_throw only in a callback, which stays rejected */
__noinline int global_loop_throw(struct __sk_buff *ctx)
{
	bpf_loop(1, loop_cb_throw, NULL, 0);
	return ctx->len;
}

/* A ring buffer reservation held across a throwing global call (kept in a
 * callee-saved register) is released by the throw
 */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw') may throw, exploring the path where it throws")
int accept_ringbuf_global_throw(struct __sk_buff *ctx)
{
	long *p;

	p = bpf_ringbuf_reserve(&ringbuf, sizeof(*p), 0);
	if (!p)
		return 0;
	*p = global_throw(ctx);
	bpf_ringbuf_submit(p, 0);
	return 0;
}

/* Same for an object from bpf_obj_new() */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw') may throw, exploring the path where it throws")
int accept_obj_new_global_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_throw(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* The throw is found through two levels of global subprogs */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw_2') may throw, exploring the path where it throws")
int accept_two_level_global_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_throw_2(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* The throwing global call is inside a static subprog the verifier
 * descends into: the reference of the caller frame is held there too.
 */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw') may throw, exploring the path where it throws")
int accept_static_to_global_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = static_calls_global(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* The throw is found through a static subprog of a global subprog */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_via_static') may throw, exploring the path where it throws")
int accept_global_to_static_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_via_static(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* A subprog reached from two call sites is marked as well */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw_twice') may throw, exploring the path where it throws")
int accept_diamond_global_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_throw_twice(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* A global call is allowed in an RCU read section, a throwing one is not */
SEC("?tc")
__failure
__msg("global function 'global_throw' called at insn {{[0-9]+}} may throw")
__msg("bpf_throw cannot be used inside bpf_rcu_read_lock-ed region")
int reject_rcu_global_throw(struct __sk_buff *ctx)
{
	int ret;

	bpf_rcu_read_lock();
	ret = global_throw(ctx);
	bpf_rcu_read_unlock();
	return ret;
}

/* No global call at all is allowed with a spin lock held */
SEC("?tc")
__failure __msg("global function calls are not allowed while holding a lock")
int reject_lock_global_throw(struct __sk_buff *ctx)
{
	struct lock_elem *e;
	int ret;

	e = bpf_map_lookup_elem(&locks, &(int){0});
	if (!e)
		return 0;
	bpf_spin_lock(&e->lock);
	ret = global_throw(ctx);
	bpf_spin_unlock(&e->lock);
	return ret;
}

/* Nor with preemption disabled */
SEC("?tc")
__failure __msg("global function calls are not allowed with preemption disabled")
int reject_preempt_global_throw(struct __sk_buff *ctx)
{
	int ret;

	bpf_preempt_disable();
	ret = global_throw(ctx);
	bpf_preempt_enable();
	return ret;
}

/* Callback references are not followed by the marking: a callback that
 * throws is rejected on its own, whatever its callers hold.
 */
SEC("?tc")
__failure __msg("cannot be called from callback subprog")
int reject_global_loop_throw(struct __sk_buff *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_loop_throw(ctx);
	bpf_obj_drop(n);
	return 0;
}

/* Nothing is held: the throwing path is explored, and is fine */
SEC("?tc")
__success __log_level(2)
__msg("Func#{{[0-9]+}} ('global_throw') may throw, exploring the path where it throws")
int accept_global_throw_nothing_held(struct __sk_buff *ctx)
{
	return global_throw(ctx);
}

/* References and RCU read sections ended before the call are fine */
SEC("?tc")
__success
int accept_released_before_global_throw(struct __sk_buff *ctx)
{
	struct node_data *n;
	long *p;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_obj_drop(n);

	p = bpf_ringbuf_reserve(&ringbuf, sizeof(*p), 0);
	if (p)
		bpf_ringbuf_discard(p, 0);

	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();

	return global_throw_2(ctx);
}

/* A reference taken only after the throwing call is fine */
SEC("?tc")
__success
int accept_acquired_after_global_throw(struct __sk_buff *ctx)
{
	long *p;
	int ret;

	ret = global_throw_twice(ctx);
	p = bpf_ringbuf_reserve(&ringbuf, sizeof(*p), 0);
	if (!p)
		return 0;
	*p = ret;
	bpf_ringbuf_submit(p, 0);
	return 0;
}

/* The program throws, but not the global subprog called with a reference
 * held: only the subprogs that reach bpf_throw are marked.
 */
SEC("?tc")
__success
int accept_ref_across_nothrow_global(struct __sk_buff *ctx)
{
	struct node_data *n;

	if (ctx->protocol == 0xdead)
		bpf_throw(1);
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	n->key = global_nothrow(ctx);
	bpf_obj_drop(n);
	return 0;
}

char _license[] SEC("license") = "GPL";

// SPDX-License-Identifier: GPL-2.0
/* Verifier cases for the release of resources by bpf_throw: what it
 * accepts, and the throws it must reject because the descriptor of the
 * throw would be ambiguous (a location holding a resource on one path and
 * something else on another), the resource cannot be released, or was
 * lost. Cases about locations are written in inline assembly.
 */
#include <vmlinux.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#include "bpf_misc.h"
#include "bpf_experimental.h"
#include "exceptions_cleanup.h"

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct obj {
	long v;
};

struct lock_elem {
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct lock_elem);
} locks SEC(".maps");

/* A type with a kptr destructor only (net/bpf/test_run.c) */
void bpf_kfunc_call_test_release(struct prog_test_ref_kfunc *p) __ksym;

struct test_ref_val {
	struct prog_test_ref_kfunc __kptr * p;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct test_ref_val);
} test_refs SEC(".maps");

#define RB_IMMS								\
	__imm(bpf_ringbuf_reserve), __imm(bpf_throw), __imm_addr(rb),	\
	__imm_const(val, VAL),						\
	__imm_const(mark, offsetof(struct __sk_buff, mark))

/* ---- Lost pointers ---- */

/* The only copy of the record is in R0 at the throw, which the call
 * clobbers: nothing can release it.
 */
SEC("?tc")
__failure __msg("Unreleased reference")
__naked int reject_lost_in_r0(void)
{
	asm volatile (RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r1 = %[val];"
	"call %[bpf_throw];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* The RFC's case: the object is not used after the throw, so the compiler
 * keeps it in R0 only.
 */
SEC("?tc")
__failure __msg("Unreleased reference")
int reject_with_reference(void *ctx)
{
	struct obj *f;

	f = bpf_obj_new(typeof(*f));
	if (!f)
		return 0;
	bpf_throw(0);
	return 0;
}

/* The only copy, in fp-8, is overwritten with zero on one path */
SEC("?tc")
__failure __msg("Unreleased reference")
__naked int reject_slot_zeroed_on_one_path(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	RB_RESERVE_8
	"*(u64 *)(r10 - 8) = r0;"
	"r0 = 0;"
	"if r7 != 0 goto l0_%=;"
	"*(u64 *)(r10 - 8) = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* The only copy, in R6, is overwritten with an unknown scalar on one path:
 * lost there, and a conflict in R6 with the other path, whichever the
 * verifier reports first.
 */
SEC("?tc")
__failure __msg("{{(Unreleased reference|R6 holds .* on one path and)}}")
__naked int reject_reg_overwritten_on_one_path(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	RB_RESERVE_8
	"r6 = r0;"
	"if r7 == 0 goto l0_%=;"
	"call %[bpf_get_prandom_u32];"
	"r6 = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* ---- Merge conflicts: a location with a resource on one path only ---- */

/* R6 holds the scalar 7 on the path that does not reserve: 7 would be
 * passed to bpf_ringbuf_discard (the soundness bug review found).
 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_reg_scalar7_vs_ringbuf(void)
{
	asm volatile ("r6 = 7;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* Same, with the 7 and the record spilled to fp-8 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-8 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_slot_scalar7_vs_ringbuf(void)
{
	asm volatile ("r6 = 7;"
	"*(u64 *)(r10 - 8) = r6;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"*(u64 *)(r10 - 8) = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* ---- Which path the verifier saw first, pinned ----
 *
 * A conflict is reported as "<this path's> on one path and <the first
 * path's> on another". do_check() goes on with the fall-through of a
 * branch and explores the jump later, so the order of the paths is the
 * order of the fall-throughs.
 */

/* The scalar 7 reaches the throw first, the record second */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds ringbuf_mem{{[^ ]*}} on one path and scalar 7 on another")
__naked int reject_reg_scalar7_first_vs_ringbuf(void)
{
	asm volatile ("r6 = 7;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 != 0 goto l1_%=;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
"l1_%=: " RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
	"goto l0_%=;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* Same in fp-8 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-8 holds ringbuf_mem{{[^ ]*}} on one path and scalar 7 on another")
__naked int reject_slot_scalar7_first_vs_ringbuf(void)
{
	asm volatile ("r6 = 7;"
	"*(u64 *)(r10 - 8) = r6;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 != 0 goto l1_%=;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
"l1_%=: " RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"*(u64 *)(r10 - 8) = r0;"
	"goto l0_%=;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* NULL first, then the scalar 7 (no resource yet: kept), then the record.
 * With a checkpoint at every prune point (BPF_F_TEST_STATE_FREQ) the 7
 * path meets the NULL path's state at the join: only the NULL being
 * precise keeps 7 from being pruned there as "the same scalar". Had it
 * been, the record would merge with the NULL, the program would load, and
 * the 7 path would hand 7 to bpf_ringbuf_discard.
 */
SEC("?tc")
__failure __flag(BPF_F_TEST_STATE_FREQ)
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds ringbuf_mem{{[^ ]*}} on one path and scalar 7 on another")
__naked int reject_reg_null_then_scalar7_then_ringbuf(void)
{
	asm volatile ("r6 = 0;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 2 goto l2_%=;"
	"if r7 == 1 goto l1_%=;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
"l1_%=: r6 = 7;"
	"goto l0_%=;"
"l2_%=: " RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
	"goto l0_%=;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* Record, NULL, scalar 7, explored in that order, meet at a checkpoint
 * before the throw. The record path stores its state there, then throws;
 * the NULL path's state differs from it (a scalar, not a pointer), so
 * it is stored too, and its throw merges NULL into the record. The 7 path
 * then meets the NULL path's state at the checkpoint: only the NULL being
 * precise keeps 7 from being pruned as "the same scalar". Had it been,
 * the program would load, and the 7 path would hand 7 to the discard.
 */
SEC("?tc")
__failure __flag(BPF_F_TEST_STATE_FREQ)
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_reg_ringbuf_null_scalar7_checkpoint(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 1 goto l1_%=;"	/* pushed first, explored last */
	"if r7 == 2 goto l2_%=;"	/* pushed last, explored second */
	RB_RESERVE_8
	"r6 = r0;"
	"goto l0_%=;"
"l2_%=: r6 = 0;"
	"goto l0_%=;"
"l1_%=: r6 = 7;"
	"goto l0_%=;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* NULL first, then the record (merged: the record or NULL), then the
 * scalar 7 at the same join. (This does not yet prove that the NULL is
 * precise: the 7 path is not pruned here even with that marking
 * disabled, the join is not a checkpoint the 7 path meets.)
 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_reg_null_ringbuf_then_scalar7(void)
{
	asm volatile ("r6 = 0;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 1 goto l1_%=;"
	"if r7 == 2 goto l2_%=;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
"l1_%=: r6 = 7;"
	"goto l0_%=;"
"l2_%=: " RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
	"goto l0_%=;"
	:
	: RB_IMMS
	: __clobber_all);
}

struct cgroup *bpf_cgroup_from_id(u64 cgid) __ksym;
void bpf_cgroup_release(struct cgroup *cgrp) __ksym;

/* A BTF pointer into its object is released from the object's start,
 * reg->off before it. The same location at two offsets on two paths
 * cannot be: the descriptor has one offset. (In C, so that the kfunc has
 * BTF; where the compiler keeps the pointer is not the point.)
 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 {{[^ ]+}} holds {{[^ ]*}}cgroup{{( on one path and [^ ]*cgroup at offset 8| at offset 8 on one path and [^ ]*cgroup)}} on another")
int reject_btf_offsets_differ(struct __sk_buff *ctx)
{
	struct cgroup *c = bpf_cgroup_from_id(1);

	if (!c)
		return 0;
	if (ctx->mark)
		asm volatile ("%[c] += 8;" : [c]"+r"(c));
	bpf_throw(VAL);
	bpf_cgroup_release(c);
	return 0;
}

/* An unknown scalar in R6 on the other path */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds scalar on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_reg_scalar_vs_ringbuf(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"call %[bpf_get_prandom_u32];"
	"r6 = r0;"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* R6 never written on the other path */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds uninitialized register on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_reg_uninit_vs_ringbuf(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"r6 = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* fp-8 never written on the other path */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-8 holds uninitialized stack on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_slot_uninit_vs_ringbuf(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"*(u64 *)(r10 - 8) = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* fp-8 holds bytes written by narrow stores (misc data) on the other path */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-8 holds misc data on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_slot_misc_vs_ringbuf(void)
{
	asm volatile ("*(u32 *)(r10 - 8) = 5;"
	"*(u32 *)(r10 - 4) = 5;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"*(u64 *)(r10 - 8) = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* A ring buffer dynptr in fp-16..fp-1 on one path, the scalar 7 spilled
 * in both of its slots on the other.
 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-{{(8|16)}} holds scalar 7 on one path and ringbuf dynptr{{[^ ]*}} on another")
__naked int reject_dynptr_vs_scalar7(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	"r1 = %[rb] ll;"
	"r2 = 8;"
	"r3 = 0;"
	"r4 = r10;"
	"r4 += -16;"
	"call %[bpf_ringbuf_reserve_dynptr];"
	"goto l1_%=;"
"l0_%=: r6 = 7;"
	"*(u64 *)(r10 - 16) = r6;"
	"*(u64 *)(r10 - 8) = r6;"
"l1_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_ringbuf_reserve_dynptr)
	: __clobber_all);
}

/* A bpf_iter_num in fp-8 on one path, the scalar 7 on the other */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 fp-8 holds scalar 7 on one path and iter bpf_iter_num{{[^ ]*}} on another")
__naked int reject_iter_vs_scalar7(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	"r1 = r10;"
	"r1 += -8;"
	"r2 = 0;"
	"r3 = 10;"
	"call %[bpf_iter_num_new];"
	"goto l1_%=;"
"l0_%=: r6 = 7;"
	"*(u64 *)(r10 - 8) = r6;"
"l1_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_iter_num_new)
	: __clobber_all);
}

/* A record on one path, an object on the other, in the same location
 * (C, as bpf_obj_new needs the type id; the compiler merges p into one
 * register or slot before the single throw).
 */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 {{[^ ]+}} holds {{(ringbuf_mem.* on one path and .*ptr_.*obj|ptr_.*obj.* on one path and ringbuf_mem)}}")
int reject_ringbuf_vs_obj(struct __sk_buff *ctx)
{
	void *p;

	if (ctx->mark)
		p = bpf_ringbuf_reserve(&rb, 8, 0);
	else
		p = bpf_obj_new(struct obj);
	bpf_throw(VAL);
	return !p;
}

/* Same with the two allocations swapped, so the other is explored first */
SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 {{[^ ]+}} holds {{(ringbuf_mem.* on one path and .*ptr_.*obj|ptr_.*obj.* on one path and ringbuf_mem)}}")
int reject_obj_vs_ringbuf(struct __sk_buff *ctx)
{
	void *p;

	if (ctx->mark)
		p = bpf_obj_new(struct obj);
	else
		p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	return !p;
}

/* The conflict is found in a caller's frame too: frame 0's R6 differs
 * between the two paths that reach the throw in frame 1.
 */
__naked __noinline __used
static void throw_subprog(void)
{
	asm volatile ("r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw), __imm_const(val, VAL)
	: __clobber_all);
}

SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 0 R6 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_caller_frame_conflict(void)
{
	asm volatile ("r6 = 7;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
"l0_%=: call throw_subprog;"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* The conflict is in frame 1 itself, between two call sites of the same
 * subprog: its R6 is the argument, a record from the first call and the
 * scalar 7 from the second (and the other way round). Both calls reach
 * the same throw, whose frame 1 descriptor merges them.
 */
__naked __noinline __used
static void throw_with_arg_in_r6(void)
{
	asm volatile ("r6 = r1;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw), __imm_const(val, VAL)
	: __clobber_all);
}

SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 1 R6 holds scalar 7 on one path and ringbuf_mem{{[^ ]*}} on another")
__naked int reject_frame1_conflict_two_sites(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"r1 = r0;"
	"call throw_with_arg_in_r6;"
"l1_%=: r0 = 0;"
	"exit;"
"l0_%=: r1 = 7;"
	"call throw_with_arg_in_r6;"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

SEC("?tc")
__failure
__msg("bpf_throw at insn {{[0-9]+}}: frame 1 R6 holds ringbuf_mem{{[^ ]*}} on one path and scalar 7 on another")
__naked int reject_frame1_conflict_two_sites_scalar_first(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 != 0 goto l0_%=;"
	"r1 = 7;"
	"call throw_with_arg_in_r6;"
	"r0 = 0;"
	"exit;"
"l0_%=:" RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"r1 = r0;"
	"call throw_with_arg_in_r6;"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* ---- Resources bpf_throw cannot release ---- */

/* prog_test_ref_kfunc has a kptr destructor but no cleanup destructor:
 * taken out of a map, it cannot be held across a throw.
 */
SEC("?tc")
__failure __msg("holds {{.*}}, which bpf_throw cannot release")
int reject_kptr_only_dtor(struct __sk_buff *ctx)
{
	struct test_ref_val *v;
	struct prog_test_ref_kfunc *p;

	v = bpf_map_lookup_elem(&test_refs, &(int){0});
	if (!v)
		return 0;
	p = bpf_kptr_xchg(&v->p, NULL);
	if (!p)
		return 0;
	bpf_throw(VAL);
	bpf_kfunc_call_test_release(p);
	return 0;
}

/* ---- Locks stay rejected, with or without resources held ---- */

SEC("?tc")
__failure __msg("function calls are not allowed while holding a lock")
int reject_spin_lock_with_record(struct __sk_buff *ctx)
{
	struct lock_elem *e;
	long *r;

	e = bpf_map_lookup_elem(&locks, &(int){0});
	if (!e)
		return 0;
	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_spin_lock(&e->lock);
	bpf_throw(VAL);
	bpf_spin_unlock(&e->lock);
	bpf_ringbuf_discard(r, 0);
	return 0;
}

SEC("?tc")
__failure __msg("bpf_throw cannot be used inside bpf_rcu_read_lock-ed region")
int reject_rcu_with_record(struct __sk_buff *ctx)
{
	long *r;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_rcu_read_lock();
	bpf_throw(VAL);
	bpf_rcu_read_unlock();
	bpf_ringbuf_discard(r, 0);
	return 0;
}

SEC("?tc")
__failure __msg("bpf_throw cannot be used inside bpf_preempt_disable-ed region")
int reject_preempt_with_record(struct __sk_buff *ctx)
{
	long *r;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_preempt_disable();
	bpf_throw(VAL);
	bpf_preempt_enable();
	bpf_ringbuf_discard(r, 0);
	return 0;
}

static __noinline int cb_throw(u32 i, void *ctx)
{
	bpf_throw(VAL);
	return 0;
}

/* A throw from a callback stays rejected, even with the caller's
 * resource kept where it could be released: a callback cannot release
 * its caller's references.
 */
SEC("?tc")
__failure __msg("Unreleased reference")
int reject_callback_with_record(struct __sk_buff *ctx)
{
	long *r;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_loop(2, cb_throw, NULL, 0);
	bpf_ringbuf_discard(r, 0);
	return 0;
}

/* ---- Accepted ---- */

/* NULL (spilled zero) in fp-8 on one path, a record on the other (the
 * RFC's reject_slot_with_zero_vs_ptr_ok).
 */
SEC("?tc")
__success
__naked int accept_slot_zero_vs_ringbuf(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"r0 = 0;"
	"*(u64 *)(r10 - 8) = r0;"
	"if r7 != 0 goto l0_%=;"
	RB_RESERVE_8
	"*(u64 *)(r10 - 8) = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* NULL in R6 on one path, a record on the other */
SEC("?tc")
__success
__naked int accept_reg_zero_vs_ringbuf(void)
{
	asm volatile ("r6 = 0;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l0_%=;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* The same scalar on both paths is no conflict, nor is a record that is
 * in the same place on both.
 */
SEC("?tc")
__success
__naked int accept_same_on_both_paths(void)
{
	asm volatile ("r9 = *(u32 *)(r1 + %[mark]);"
	"r8 = 7;"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"r6 = r0;"
	"if r9 == 0 goto l0_%=;"
	"r8 = 7;"
"l0_%=: r1 = %[val];"
	"call %[bpf_throw];"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* One record in R6, R7 and fp-8 gets one descriptor entry: accepted, and
 * the level 2 log shows the descriptors.
 */
SEC("?tc")
__success __log_level(2)
__msg("frame_desc:")
__naked int accept_copies_frame_desc_log(void)
{
	asm volatile (RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
	"r7 = r0;"
	"*(u64 *)(r10 - 8) = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS
	: __clobber_all);
}

/* A record not checked for NULL is released (if not NULL) at run time */
SEC("?tc")
__success
int accept_maybe_null_record(struct __sk_buff *ctx)
{
	void *p;

	p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	return !p;
}

/* An iterator and a record held when the loop body throws (also gives the
 * naked programs above the BTF of the bpf_iter_num kfuncs).
 */
SEC("?tc")
__success
int accept_iter_and_record(struct __sk_buff *ctx)
{
	long *r;
	int i;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_for(i, 0, 10) {
		if (i == ctx->mark)
			bpf_throw(VAL);
	}
	bpf_ringbuf_discard(r, 0);
	return 0;
}

/* The RFC's null_or_ptr_do_ptr, which the RFC accepted: clang drops the
 * store of zero into the volatile union, so on the ctx->len == 0 path fp-8
 * is uninitialized stack where the other path holds a record. Releasing
 * it would pass stack garbage to bpf_ringbuf_discard().
 */
SEC("?tc")
__failure __msg("holds uninitialized stack on one path and ringbuf_mem on another")
int reject_rfc_null_or_ptr_do_ptr(struct __sk_buff *ctx)
{
	union {
		void *p;
		char buf[8];
	} volatile p;
	u64 z = 0;

	__builtin_memcpy((void *)&p.p, &z, sizeof(z));
	if (ctx->len)
		p.p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	return 0;
}

/* ---- The cookie of a throw in a global subprog ---- */

/* With the default exception callback, the cookie is the program's return
 * value, whichever frame throws. A global subprog is verified on its own,
 * and its bpf_throw escaped the check of the program's return range.
 */
__noinline int throw_one(int x)
{
	if (x)
		bpf_throw(1);
	return 0;
}

__noinline int throw_eperm(int x)
{
	if (x)
		bpf_throw(-1);
	return 0;
}

/* file_open returns 0 or -errno: 1 is not an errno (pristine 6.12 took it) */
SEC("?lsm/file_open")
__failure __msg("At program exit the register R1 has smin=1 smax=1 should have been in [-4095, 0]")
int BPF_PROG(reject_lsm_cookie_in_global_subprog, struct file *file)
{
	throw_one(bpf_get_prandom_u32());
	return 0;
}

SEC("?lsm/file_open")
__success
int BPF_PROG(lsm_errno_cookie_in_global_subprog, struct file *file)
{
	throw_eperm(bpf_get_prandom_u32());
	return 0;
}

/* A netfilter verdict of 0xffff0000 is neither NF_DROP nor NF_ACCEPT */
__noinline int throw_bad_verdict(int x)
{
	if (x)
		bpf_throw(0xffff0000);
	return 0;
}

SEC("?netfilter")
__failure __msg("At program exit the register R1 has smin=4294901760 smax=4294901760 should have been in [0, 1]")
int reject_netfilter_cookie_in_global_subprog(struct bpf_nf_ctx *ctx)
{
	throw_bad_verdict(bpf_get_prandom_u32());
	return 1;
}

/* ---- Iterators the program wrote to ----
 *
 * The verifier lets a program write over the slots of an iterator, and then
 * refuses the next and destroy calls on it. bpf_throw destroys what it finds
 * without such a call, so it must refuse the same iterators, or the
 * destructor runs on what the program wrote: bpf_iter_bits_destroy() frees
 * the pointer in the first slot when the second says nr_bits > 64.
 */

int bpf_iter_bits_new(struct bpf_iter_bits *it, const u64 *unsafe_ptr__ign,
		      u32 nr_words) __ksym;

/* A bits iterator in fp-16 (and fp-8) over the word 0x4141414141414141:
 * nr_words = 1 keeps the word itself in the first slot.
 */
#define BITS_ITER_OF_WORD_AT_FP16				\
	"r1 = 0x4141414141414141 ll;"				\
	"*(u64 *)(r10 - 24) = r1;"				\
	"r1 = r10;"						\
	"r1 += -16;"						\
	"r2 = r10;"						\
	"r2 += -24;"						\
	"r3 = 1;"						\
	"call %[bpf_iter_bits_new];"

/* Raising nr_bits makes the destructor free the word as a pointer */
SEC("?tc")
__failure
__msg("frame 0 fp-16 holds iter bpf_iter_bits, whose slot fp-8 the program wrote to;")
__msg("bpf_throw cannot destroy a changed iterator, destroy it before writing there")
__naked int reject_iter_bits_nr_bits_written(void)
{
	asm volatile (BITS_ITER_OF_WORD_AT_FP16
	"r1 = 0x7fffffff;"
	"*(u32 *)(r10 - 8) = r1;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_iter_bits_new)
	: __clobber_all);
}

/* nr_words = 2 allocates a copy of the words; nr_bits = 0 leaks it */
SEC("?tc")
__failure
__msg("frame 0 fp-16 holds iter bpf_iter_bits, whose slot fp-8 the program wrote to")
__naked int reject_iter_bits_nr_bits_zeroed(void)
{
	asm volatile ("r1 = 0;"
	"*(u64 *)(r10 - 32) = r1;"
	"*(u64 *)(r10 - 24) = r1;"
	"r1 = r10;"
	"r1 += -16;"
	"r2 = r10;"
	"r2 += -32;"
	"r3 = 2;"
	"call %[bpf_iter_bits_new];"
	"*(u32 *)(r10 - 8) = 0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_iter_bits_new)
	: __clobber_all);
}

/* A helper writing its output over the second slot: the packet's bytes
 * become nr_bits and bit.
 */
SEC("?tc")
__failure
__msg("frame 0 fp-16 holds iter bpf_iter_bits, whose slot fp-8 the program wrote to")
__naked int reject_iter_bits_helper_write(void)
{
	asm volatile ("r6 = r1;"
	BITS_ITER_OF_WORD_AT_FP16
	"r1 = r6;"
	"r2 = 0;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 8;"
	"call %[bpf_skb_load_bytes];"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_iter_bits_new), __imm(bpf_skb_load_bytes)
	: __clobber_all);
}

/* A store at a variable offset that may hit either half of the second
 * slot (the privileged verifier allows it)
 */
SEC("?tc")
__failure
__msg("frame 0 fp-16 holds iter bpf_iter_bits, whose slot fp-8 the program wrote to")
__naked int reject_iter_bits_var_off_write(void)
{
	asm volatile (BITS_ITER_OF_WORD_AT_FP16
	"call %[bpf_get_prandom_u32];"
	"r0 &= 4;"
	"r1 = r10;"
	"r1 += r0;"
	"r2 = 0x7fffffff;"
	"*(u32 *)(r1 - 8) = r2;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_iter_bits_new), __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* The same iterator, untouched, is destroyed at the throw (this C use also
 * gives the kfunc the BTF that the inline assembly above does not)
 */
SEC("?tc")
__success
int accept_iter_bits_intact(struct __sk_buff *ctx)
{
	u64 words[2] = { ctx->mark, 1 };
	struct bpf_iter_bits it;

	bpf_iter_bits_new(&it, words, 2);
	bpf_throw(VAL);
	return 0;
}

/* An RCU-protected iterator kept past bpf_rcu_read_unlock() in a sleepable
 * program: the verifier marks it untrusted, its next and destroy are
 * refused, and so is destroying it at a throw.
 */
SEC("?syscall")
__failure
__msg("frame 0 fp-{{[0-9]+}} holds iter bpf_iter_task outside the RCU read lock it needs")
int reject_iter_task_after_rcu_unlock(void *ctx)
{
	struct bpf_iter_task it;

	bpf_rcu_read_lock();
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_PROCS);
	bpf_rcu_read_unlock();
	bpf_throw(VAL);
	return 0;
}

/* ---- Socket casts ---- */

/* Only the cast bpf_tcp_sock() returned is held, in R6: it shares the
 * socket's reference, but may be NULL where the socket is not (a UDP
 * socket). bpf_throw releases the socket itself, which nothing holds.
 */
SEC("?tc")
__failure __msg("frame 0 R6 holds tcp_sock, a cast of a socket that no frame holds")
__naked int reject_only_socket_cast(void)
{
	asm volatile ("r2 = 0;"
	"*(u64 *)(r10 - 16) = r2;"
	"*(u64 *)(r10 - 8) = r2;"
	"r2 = r10;"
	"r2 += -16;"
	"r3 = 12;"
	"r4 = -1;"
	"r5 = 0;"
	"call %[bpf_sk_lookup_tcp];"
	"if r0 == 0 goto l0_%=;"
	"r1 = r0;"
	"call %[bpf_tcp_sock];"
	"r6 = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_tcp_sock), __imm(bpf_throw),
	  __imm_const(val, VAL)
	: __clobber_all);
}

/* ---- Dynptr clones in another frame ---- */

extern int bpf_dynptr_clone(const struct bpf_dynptr *ptr,
			    struct bpf_dynptr *clone__init) __ksym;

static __noinline int clone_then_discard(struct bpf_dynptr *d)
{
	struct bpf_dynptr c;

	bpf_dynptr_clone(d, &c);
	bpf_ringbuf_discard_dynptr(&c, 0);
	return 0;
}

/* The callee discards a clone of the caller's dynptr: the caller's dynptr
 * is released with it. Before clones were looked for in every frame, the
 * caller's copy stayed initialized and was discarded a second time.
 */
SEC("?tc")
__failure __msg("arg 1 is an unacquired reference")
int reject_discard_after_callee_discarded_clone(void *ctx)
{
	struct bpf_dynptr d;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	clone_then_discard(&d);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

static __noinline int clone_discard_throw(struct bpf_dynptr *d)
{
	struct bpf_dynptr c;

	bpf_dynptr_clone(d, &c);
	bpf_ringbuf_discard_dynptr(d, 0);
	bpf_throw(VAL);
	return 0;
}

/* At the throw, frame 1 held a clone of a discarded dynptr under an id
 * the state no longer has, and frame 0 holds d2. The stale clone took the
 * only room for a reference (WARN in claim_ref()) and d2 was recorded as
 * a copy, left reserved. Now the clone is invalidated with the original,
 * and d2 is the record released.
 */
SEC("?tc")
__success __retval(0xeB9F)
int accept_throw_after_callee_discarded_original(void *ctx)
{
	struct bpf_dynptr d, d2;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d2);
	clone_discard_throw(&d);
	bpf_ringbuf_discard_dynptr(&d2, 0);
	return 0;
}

/* ---- Slices of a stack buffer ---- */

/* bpf_dynptr_slice_rdwr() of a non-linear skb returns the stack buffer it
 * was given. Writing through such a slice once those bytes hold an
 * iterator, a dynptr or a spill, or once their frame has returned, would
 * forge what the verifier tracks there: an iterator or a ringbuf dynptr
 * whose pointer bpf_throw (or the explicit destroy) hands to the kernel.
 * These loaded on pristine 6.12 too.
 */
extern int bpf_dynptr_from_skb(struct __sk_buff *skb, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym;
extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *ptr, __u32 offset,
				   void *buffer__opt, __u32 buffer__szk) __ksym;

#define SLICE_IMMS							\
	__imm(bpf_dynptr_from_skb), __imm(bpf_dynptr_slice_rdwr)

/* r6 = ctx; skb dynptr in fp-16; R7 = slice of the 16 bytes at fp-32 */
#define SLICE_FP32							\
	"r6 = r1;"							\
	"r2 = 0;"							\
	"r3 = r10;"							\
	"r3 += -16;"							\
	"call %[bpf_dynptr_from_skb];"					\
	"r1 = 0;"							\
	"*(u64 *)(r10 - 32) = r1;"					\
	"*(u64 *)(r10 - 24) = r1;"					\
	"r1 = r10;"							\
	"r1 += -16;"							\
	"r2 = 0;"							\
	"r3 = r10;"							\
	"r3 += -32;"							\
	"r4 = 16;"							\
	"call %[bpf_dynptr_slice_rdwr];"				\
	"if r0 == 0 goto l0_%=;"					\
	"r7 = r0;"

/* Iterator state, end and cur, built in fp-24 and forged through the
 * slice in register S
 */
#define FORGE_ITER(S)							\
	"r1 = r10;"							\
	"r1 += -24;"							\
	"r2 = 0;"							\
	"r3 = 10;"							\
	"call %[bpf_iter_num_new];"					\
	"r1 = 0x7fffffff;"						\
	"*(u64 *)(" S " + 8) = r1;"					\
	"r1 = r10;"							\
	"r1 += -24;"							\
	"call %[bpf_iter_num_destroy];"

/* A ringbuf dynptr at fp-32 whose data pointer, forged through the
 * slice in register S, is 0x4141414141414141, discarded by the throw
 */
#define FORGE_DYN(S)							\
	"r1 = %[rb] ll;"						\
	"r2 = 8;"							\
	"r3 = 0;"							\
	"r4 = r10;"							\
	"r4 += -32;"							\
	"call %[bpf_ringbuf_reserve_dynptr];"				\
	"r1 = 0x4141414141414141 ll;"					\
	"*(u64 *)(" S " + 0) = r1;"					\
	"r1 = %[val];"							\
	"call %[bpf_throw];"

/* The iterator's state, end and cur, written through the slice */
SEC("?tc")
__failure __msg("R7 invalid mem access 'scalar'")
__naked int reject_slice_write_into_iter(void)
{
	asm volatile (SLICE_FP32
	FORGE_ITER("r7")
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, __imm(bpf_iter_num_new), __imm(bpf_iter_num_destroy)
	: __clobber_all);
}

/* A ringbuf dynptr whose data pointer is 0x4141414141414141, discarded
 * by the throw.
 */
SEC("?tc")
__failure __msg("R7 invalid mem access 'scalar'")
__naked int reject_slice_write_into_dynptr(void)
{
	asm volatile (SLICE_FP32
	FORGE_DYN("r7")
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, RB_IMMS, __imm(bpf_ringbuf_reserve_dynptr)
	: __clobber_all);
}

/* A spilled ctx pointer replaced through the slice, then used */
SEC("?tc")
__failure __msg("R7 invalid mem access 'scalar'")
__naked int reject_slice_write_into_spill(void)
{
	asm volatile (SLICE_FP32
	"*(u64 *)(r10 - 32) = r6;"
	"r1 = 0x4141414141414141 ll;"
	"*(u64 *)(r7 + 0) = r1;"
	"r6 = *(u64 *)(r10 - 32);"
	"r0 = *(u32 *)(r6 + %[mark]);"
	"exit;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, RB_IMMS
	: __clobber_all);
}

/* A known zero made non-zero through the slice */
SEC("?tc")
__failure __msg("R7 invalid mem access 'scalar'")
__naked int reject_slice_write_into_known_zero(void)
{
	asm volatile (SLICE_FP32
	"r1 = 0;"
	"*(u32 *)(r10 - 32) = r1;"
	"r1 = 1;"
	"*(u32 *)(r7 + 0) = r1;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS
	: __clobber_all);
}

/* Returns a slice of its own stack buffer, which dies with its frame */
__used __naked __noinline static void slice_of_own_stack(void)
{
	asm volatile (SLICE_FP32
	"r0 = r7;"
	"exit;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS
	: __clobber_all);
}

SEC("?tc")
__failure __msg("R0 invalid mem access 'scalar'")
__naked int reject_slice_of_returned_frame(void)
{
	asm volatile ("call slice_of_own_stack;"
	"if r0 == 0 goto l0_%=;"
	"r1 = 1;"
	"*(u64 *)(r0 + 0) = r1;"
"l0_%=: r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* R8 = a slice whose buffer is the slice in R7: at run time it may be
 * the same stack bytes, fp-32 to fp-17.
 */
#define SLICE_OF_SLICE							\
	"r1 = r10;"							\
	"r1 += -16;"							\
	"r2 = 0;"							\
	"r3 = r7;"							\
	"r4 = 16;"							\
	"call %[bpf_dynptr_slice_rdwr];"				\
	"if r0 == 0 goto l0_%=;"					\
	"r8 = r0;"

/* An iterator built under a slice of the stack slice, then forged
 * through the second slice.
 */
SEC("?tc")
__failure __msg("R8 invalid mem access 'scalar'")
__naked int reject_slice_of_slice_write_into_iter(void)
{
	asm volatile (SLICE_FP32
	SLICE_OF_SLICE
	FORGE_ITER("r8")
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, __imm(bpf_iter_num_new), __imm(bpf_iter_num_destroy)
	: __clobber_all);
}

/* The ringbuf dynptr of the throw, forged through the second slice */
SEC("?tc")
__failure __msg("R8 invalid mem access 'scalar'")
__naked int reject_slice_of_slice_write_into_dynptr(void)
{
	asm volatile (SLICE_FP32
	SLICE_OF_SLICE
	FORGE_DYN("r8")
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, RB_IMMS, __imm(bpf_ringbuf_reserve_dynptr)
	: __clobber_all);
}

/* A spilled ctx pointer replaced through the second slice */
SEC("?tc")
__failure __msg("R8 invalid mem access 'scalar'")
__naked int reject_slice_of_slice_write_into_spill(void)
{
	asm volatile (SLICE_FP32
	SLICE_OF_SLICE
	"*(u64 *)(r10 - 24) = r6;"
	"r1 = 0x4141414141414141 ll;"
	"*(u64 *)(r8 + 8) = r1;"
	"r6 = *(u64 *)(r10 - 24);"
	"r0 = *(u32 *)(r6 + %[mark]);"
	"exit;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, RB_IMMS
	: __clobber_all);
}

/* Returns a slice of a slice of its own stack buffer */
__used __naked __noinline static void slice_of_slice_of_own_stack(void)
{
	asm volatile (SLICE_FP32
	SLICE_OF_SLICE
	"r0 = r8;"
	"exit;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS
	: __clobber_all);
}

SEC("?tc")
__failure __msg("R0 invalid mem access 'scalar'")
__naked int reject_slice_of_slice_of_returned_frame(void)
{
	asm volatile ("call slice_of_slice_of_own_stack;"
	"if r0 == 0 goto l0_%=;"
	"r1 = 1;"
	"*(u64 *)(r0 + 0) = r1;"
"l0_%=: r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* Both slices stay usable while their bytes hold nothing else */
SEC("?tc")
__success
__naked int accept_slice_of_slice(void)
{
	asm volatile (SLICE_FP32
	SLICE_OF_SLICE
	"r1 = *(u64 *)(r7 + 0);"
	"*(u64 *)(r8 + 8) = r1;"
	"*(u64 *)(r10 - 40) = r6;"
	"r1 = *(u64 *)(r8 + 0);"
	"*(u64 *)(r7 + 8) = r1;"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS
	: __clobber_all);
}

/* Spills and iterators next to the buffer leave the slice alone */
SEC("?tc")
__success
__naked int accept_slice_with_state_beside_buffer(void)
{
	asm volatile (SLICE_FP32
	"*(u64 *)(r10 - 40) = r6;"
	"r1 = r10;"
	"r1 += -48;"
	"r2 = 0;"
	"r3 = 10;"
	"call %[bpf_iter_num_new];"
	"r1 = 1;"
	"*(u64 *)(r7 + 8) = r1;"
	"r1 = *(u64 *)(r10 - 32);"
	"*(u64 *)(r7 + 0) = r1;"
	"r1 = r10;"
	"r1 += -48;"
	"call %[bpf_iter_num_destroy];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: SLICE_IMMS, __imm(bpf_iter_num_new), __imm(bpf_iter_num_destroy)
	: __clobber_all);
}

/* The usual use, which must keep loading (also gives the programs above
 * the BTF of the two kfuncs).
 */
SEC("?tc")
__success
int accept_slice_of_stack_buffer(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u64 buf[2] = {};
	__u64 *p;

	bpf_dynptr_from_skb(skb, 0, &d);
	p = bpf_dynptr_slice_rdwr(&d, 0, buf, sizeof(buf));
	if (!p)
		return 0;
	p[1] = p[0] + 1;
	return 0;
}

/* A kfunc's __map argument must be a map pointer, not another pointer
 * whose register union the verifier would read as one: the slice's size
 * and dynptr id, the record's size. These crashed the verifier at load
 * on pristine 6.12.
 */
struct wq_elem {
	struct bpf_wq w;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct wq_elem);
} wqs SEC(".maps");

SEC("?tc")
__failure __msg("pointer in R2 isn't map pointer")
int reject_wq_init_with_slice(struct __sk_buff *skb)
{
	struct wq_elem *e;
	struct bpf_dynptr d;
	__u64 buf[2] = {};
	int key = 0;
	void *p;

	e = bpf_map_lookup_elem(&wqs, &key);
	if (!e)
		return 0;
	bpf_dynptr_from_skb(skb, 0, &d);
	p = bpf_dynptr_slice_rdwr(&d, 0, buf, sizeof(buf));
	if (!p)
		return 0;
	bpf_wq_init(&e->w, p, 0);
	return 0;
}

SEC("?tc")
__failure __msg("pointer in R2 isn't map pointer")
int reject_wq_init_with_record(struct __sk_buff *skb)
{
	struct wq_elem *e;
	int key = 0;
	void *r;

	e = bpf_map_lookup_elem(&wqs, &key);
	if (!e)
		return 0;
	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return 0;
	bpf_wq_init(&e->w, r, 0);
	bpf_ringbuf_discard(r, 0);
	return 0;
}

/* A global subprog's dynptr argument may be an skb dynptr whatever the
 * verifier assumed: its slices must die when the packet changes (here
 * bpf_skb_change_head() may free the head they point into), and a write
 * through it may reallocate the head under the caller's packet pointers.
 * Both loaded on pristine 6.12.
 */
__noinline int global_slice_then_change_head(struct __sk_buff *skb,
					     struct bpf_dynptr *d)
{
	__u64 buf[2] = {};
	__u64 *p;

	p = bpf_dynptr_slice_rdwr(d, 0, buf, sizeof(buf));
	if (!p)
		return 0;
	bpf_skb_change_head(skb, 64, 0);
	p[0] = 1;
	return 0;
}

SEC("?tc")
__failure __msg("invalid mem access 'scalar'")
int reject_global_slice_after_change_head(struct __sk_buff *skb)
{
	struct bpf_dynptr d;

	bpf_dynptr_from_skb(skb, 0, &d);
	return global_slice_then_change_head(skb, &d);
}

__noinline int global_dynptr_write(struct bpf_dynptr *d)
{
	char c = 0;

	return bpf_dynptr_write(d, 0, &c, 1, 0);
}

SEC("?tc")
__failure __msg("invalid mem access 'scalar'")
int reject_pkt_ptr_after_global_dynptr_write(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct bpf_dynptr d;

	if (data + 1 > end)
		return 0;
	bpf_dynptr_from_skb(skb, 0, &d);
	global_dynptr_write(&d);
	*(char *)data = 1;
	return 0;
}

/* A global subprog's dynptr argument still slices and reads as before */
__noinline int global_slice_read(struct bpf_dynptr *d)
{
	__u64 buf[2] = {};
	__u64 *p;

	p = bpf_dynptr_slice_rdwr(d, 0, buf, sizeof(buf));
	if (!p)
		return 0;
	p[1] = p[0];
	return 1;
}

SEC("?tc")
__success __retval(1)
int accept_global_slice(struct __sk_buff *skb)
{
	struct bpf_dynptr d;

	bpf_dynptr_from_skb(skb, 0, &d);
	return global_slice_read(&d);
}

/* A kfunc buffer given as an untrusted BTF pointer to the stack: the
 * slice's copy would overwrite the slots behind the verifier's back
 * (helper-8's review, H1). A BTF pointer never becomes a kfunc memory
 * argument: one for a pointer to void is refused.
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset,
			      void *buffer__opt, __u32 buffer__szk) __ksym;

SEC("?tc")
__failure __msg("bpf_dynptr_slice args#2 pointer type UNKNOWN  is not supported")
int reject_slice_buffer_untrusted_btf(struct __sk_buff *skb)
{
	struct bpf_dynptr d;
	__u64 buf[2] = {};
	void *p;

	bpf_dynptr_from_skb(skb, 0, &d);
	p = bpf_rdonly_cast(buf, bpf_core_type_id_kernel(struct bpf_dynptr));
	bpf_dynptr_slice(&d, 0, p, 16);
	return 0;
}

/* ---- bpf_refcount_acquire() of a pointer into the object ----
 *
 * The kfunc increments p + refcount_off and returns p, which the verifier
 * took for the start of the object: given a node (at offset 8 here), the
 * increment went past the object, and the throw, or the program's own
 * bpf_obj_drop(), freed a pointer no object starts at. Also wrong on
 * pristine 6.12 (helper-12's P1).
 */
struct rc_node {
	long key;
	struct bpf_rb_node r;
	struct bpf_refcount ref;
};

SEC(".bss.RC") __hidden __attribute__((aligned(8)))
struct bpf_spin_lock rc_lock;
SEC(".bss.RC") __hidden __attribute__((aligned(8)))
struct bpf_rb_root rc_root __contains(rc_node, r);

static bool rc_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct rc_node, r)->key <
	       container_of(b, struct rc_node, r)->key;
}

/* With rc_lock held, add a new node and return the tree's first */
static __always_inline struct bpf_rb_node *rc_first_locked(void)
{
	struct rc_node *n = bpf_obj_new(typeof(*n));

	bpf_spin_lock(&rc_lock);
	if (n)
		bpf_rbtree_add(&rc_root, &n->r, rc_less);
	return bpf_rbtree_first(&rc_root);
}

SEC("?tc")
__failure __msg("arg#0 points 8 bytes into its object: pass the object itself")
int reject_refcount_acquire_node(struct __sk_buff *ctx)
{
	struct rc_node *n, *m;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	m = bpf_refcount_acquire((void *)&n->r);
	bpf_throw(1);
	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 0;
}

/* The mistake programs will make: the node bpf_rbtree_first() returned */
SEC("?tc")
__failure __msg("arg#0 points 8 bytes into its object: pass the object itself")
int reject_refcount_acquire_rbtree_first(struct __sk_buff *ctx)
{
	struct bpf_rb_node *r = rc_first_locked();
	struct rc_node *m = NULL;

	if (r)
		m = bpf_refcount_acquire((void *)r);
	bpf_spin_unlock(&rc_lock);
	if (m)
		bpf_obj_drop(m);
	return 0;
}

/* The same after container_of(): accepted */
SEC("?tc")
__success __retval(0)
int accept_refcount_acquire_container(struct __sk_buff *ctx)
{
	struct bpf_rb_node *r = rc_first_locked();
	struct rc_node *m = NULL;

	if (r)
		m = bpf_refcount_acquire(container_of(r, struct rc_node, r));
	if (r)
		r = bpf_rbtree_remove(&rc_root, r);
	bpf_spin_unlock(&rc_lock);
	if (r)
		bpf_obj_drop(container_of(r, struct rc_node, r));
	if (m)
		bpf_obj_drop(m);
	return 0;
}

char _license[] SEC("license") = "GPL";

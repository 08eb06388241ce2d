// SPDX-License-Identifier: GPL-2.0
/* Throws that passes after do_check() could turn into a release of memory
 * the program chose: the bpf_fastcall spill/fill removal, the random upper
 * halves of BPF_F_TEST_RND_HI32, the tc prologue patched in at insn 0.
 * Each case holds a ring buffer record when it throws; user space checks
 * that the record came back, and the kernel must not crash or WARN.
 * Written in inline assembly, so that the slots and registers are these.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>

#include "bpf_misc.h"
#include "bpf_experimental.h"
#include "exceptions_cleanup.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* BTF FUNC records are not generated for kfuncs referenced only from
 * inline assembly, and libbpf needs one to link bpf_throw.
 */
void __kfunc_btf_root(void)
{
	bpf_throw(0);
}

#define RB_IMMS								\
	__imm(bpf_ringbuf_reserve), __imm(bpf_throw), __imm_addr(rb),	\
	__imm_const(val, VAL)

/* The record is spilled to fp-8 around bpf_get_smp_processor_id(), a
 * bpf_fastcall helper the verifier inlines: without the throw, the pair
 * is removed and the stack shrinks to nothing. The throw names fp-8, so
 * the pair must stay. Had it gone, fp-8 would be the caller's R6 that the
 * prologue saved there, 0x4141414141414141, handed to the discard.
 */
__used __naked __noinline static void fastcall_slot_sub(void)
{
	asm volatile ("r6 = 0;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r1 = r0;"
	"*(u64 *)(r10 - 8) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 8);"
	"r1 = %[val];"
	"call %[bpf_throw];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

SEC("?tc")
__naked int fastcall_slot(void)
{
	asm volatile ("r6 = 0x4141414141414141 ll;"
	"call fastcall_slot_sub;"
	"r0 = r6;"
	"exit;"
	::: __clobber_all);
}

/* R6 is the record on one path and NULL, written as w6 = 0, on the other
 * (mark 0). The release takes all 64 bits of R6: with
 * BPF_F_TEST_RND_HI32 the upper half of a 32-bit definition is random
 * unless the throw asks for it to be zero-extended.
 */
SEC("?tc")
__naked int rnd_hi32_null(void)
{
	asm volatile ("r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 != 0 goto l0_%=;"
	"w6 = 0;"
	"goto l1_%=;"
"l0_%=: " RB_RESERVE_8
	"r6 = r0;"
"l1_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm_const(mark, offsetof(struct __sk_buff, mark))
	: __clobber_all);
}

/* A direct packet write makes the verifier patch the tc unclone prologue,
 * with a call of bpf_skb_pull_data(), in front of insn 0, which is the call
 * of the throwing frame: the main frame's descriptor must stay with that
 * call, not move to the prologue's.
 */
__used __naked __noinline static void prologue_insn0_sub(void)
{
	asm volatile ("r6 = r1;"
	"r2 = *(u32 *)(r6 + %[data]);"
	"r3 = *(u32 *)(r6 + %[data_end]);"
	"r4 = r2;"
	"r4 += 1;"
	"if r4 > r3 goto l0_%=;"
	"r4 = 0;"
	"*(u8 *)(r2 + 0) = r4;"
"l0_%=: " RB_RESERVE_8
	"r7 = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm_const(data, offsetof(struct __sk_buff, data)),
	  __imm_const(data_end, offsetof(struct __sk_buff, data_end))
	: __clobber_all);
}

SEC("?tc")
__naked int prologue_insn0(void)
{
	asm volatile ("call prologue_insn0_sub;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* Throws holding a record when skb->mark is 0, else returns without it */
__used __naked __noinline static void throw_if_mark0(void)
{
	asm volatile ("r6 = *(u32 *)(r1 + %[mark]);"
	RB_RESERVE_8
	"if r0 == 0 goto l1_%=;"
	"r7 = r0;"
	"if r6 != 0 goto l0_%=;"
	"r1 = %[val];"
	"call %[bpf_throw];"
"l0_%=: r1 = r7;"
	"r2 = 0;"
	"call %[bpf_ringbuf_discard];"
"l1_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_ringbuf_discard),
	  __imm_const(mark, offsetof(struct __sk_buff, mark))
	: __clobber_all);
}

/* A may_goto needs a counter slot, which do_misc_fixups() initializes
 * with a store patched in front of the subprog's first insn: here the call
 * of the throwing frame, whose descriptor must stay with the call.
 */
SEC("?tc")
__naked int may_goto_insn0(void)
{
	asm volatile ("call throw_if_mark0;"
	/* may_goto +1 (BPF_JMP | BPF_JCOND), spelled out for any assembler */
	".byte 0xe5, 0; .short 1; .long 0;"
	"r0 = 0;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* Holds nothing when it throws: its descriptors are freed before the JIT */
SEC("?tc")
__naked int throw_holding_nothing(void)
{
	asm volatile ("r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw), __imm_const(val, VAL)
	: __clobber_all);
}

/* ---- Helper and kfunc stack arguments in the bpf_fastcall area ----
 *
 * A spill/fill pair around bpf_get_smp_processor_id() is removed after
 * do_check, and the stack shrinks above it, unless something else touches
 * the slot. A helper's key or a kfunc's buffer there touches it too (and
 * a throw's descriptor can name a slice of it). Had the pair gone, the
 * slot would be the caller's R6 that the callee's prologue pushed there:
 * the helper would read it, the kfunc overwrite it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, u64);
	__type(value, u64);
} fastcall_keys SEC(".maps");

#define FASTCALL_KEY 0x77

extern int bpf_dynptr_from_xdp(struct xdp_md *xdp, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *ptr, __u32 offset,
			      void *buffer__opt, __u32 buffer__szk) __ksym;

/* Gives the kfuncs above the BTF FUNC records libbpf needs (see above) */
__noinline int fastcall_kfunc_btf_root(struct xdp_md *xdp)
{
	struct bpf_dynptr d;

	bpf_dynptr_from_xdp(xdp, 0, &d);
	return !!bpf_dynptr_slice(&d, 0, NULL, 1);
}

/* fastcall_keys[fp-8] = fp-8, fp-8 being the spill slot */
__used __naked __noinline static void fastcall_helper_key_sub(void)
{
	asm volatile ("r6 = 0;"
	"r1 = %[key];"
	"*(u64 *)(r10 - 8) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 8);"
	"r1 = %[fastcall_keys] ll;"
	"r2 = r10;"
	"r2 += -8;"
	"r3 = r10;"
	"r3 += -8;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id), __imm(bpf_map_update_elem),
	  __imm_addr(fastcall_keys), __imm_const(key, FASTCALL_KEY)
	: __clobber_all);
}

SEC("?tc")
__naked int fastcall_helper_key(void)
{
	asm volatile ("r6 = 0x4141414141414141 ll;"
	"call fastcall_helper_key_sub;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* The xdp dynptr is at fp-16; the spill slot fp-24 is the buffer of a
 * slice that straddles the end of the linear part, so that the kfunc
 * copies the 8 packet bytes there.
 */
__used __naked __noinline static void fastcall_kfunc_buffer_sub(void)
{
	asm volatile ("r6 = r1;"
	"r2 = 0;"
	"r3 = r10;"
	"r3 += -16;"
	"call %[bpf_dynptr_from_xdp];"
	"r1 = 0;"
	"*(u64 *)(r10 - 24) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 24);"
	"r2 = *(u32 *)(r6 + %[data_end]);"
	"r1 = *(u32 *)(r6 + %[data]);"
	"r2 -= r1;"
	"r2 -= 4;"
	"r1 = r10;"
	"r1 += -16;"
	"r3 = r10;"
	"r3 += -24;"
	"r4 = 8;"
	"call %[bpf_dynptr_slice];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id), __imm(bpf_dynptr_from_xdp),
	  __imm(bpf_dynptr_slice),
	  __imm_const(data, offsetof(struct xdp_md, data)),
	  __imm_const(data_end, offsetof(struct xdp_md, data_end))
	: __clobber_all);
}

/* Returns its R6, 7, unless the kfunc wrote packet bytes over it */
SEC("?xdp.frags")
__naked int fastcall_kfunc_buffer(void)
{
	asm volatile ("r6 = 7;"
	"call fastcall_kfunc_buffer_sub;"
	"r0 = r6;"
	"exit;"
	::: __clobber_all);
}

/* Two patterns of different lengths share the lowest slot: the longer
 * one's second spill (fp-16) is removed too, so the region the contract
 * guards must cover it, and the plain store and load at fp-16 keep the
 * spills. Had they gone, fp-16 would still hold 42 where the verifier
 * knows the 7 of the second pattern's spill. (helper-8's review, C1.)
 */
SEC("?tc")
__naked int fastcall_unequal_patterns(void)
{
	asm volatile ("r7 = 42;"
	"*(u64 *)(r10 - 16) = r7;"
	"r1 = 1;"
	"*(u64 *)(r10 - 24) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 24);"
	"r2 = 7;"
	"*(u64 *)(r10 - 16) = r2;"
	"*(u64 *)(r10 - 24) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 24);"
	"r2 = *(u64 *)(r10 - 16);"
	"r0 = *(u64 *)(r10 - 16);"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

/* Reads its caller's fp-8 through R1 */
__used __naked __noinline static void fastcall_reader(void)
{
	asm volatile ("r0 = *(u64 *)(r1 + 0);"
	"exit;"
	::: __clobber_all);
}

/* A callee reads this frame's spill slot: that keeps this frame's spills.
 * Had they gone, fp-8 would be the caller's R6, 42, that the prologue
 * pushed there, where the verifier knows 7. (helper-8's review, C2.)
 */
__used __naked __noinline static void fastcall_read_by_callee(void)
{
	asm volatile ("r1 = 7;"
	"*(u64 *)(r10 - 8) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 8);"
	"r1 = r10;"
	"r1 += -8;"
	"call fastcall_reader;"
	"r6 = 0;"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

SEC("?tc")
__naked int fastcall_cross_frame_read(void)
{
	asm volatile ("r6 = 42;"
	"call fastcall_read_by_callee;"
	"exit;"
	::: __clobber_all);
}

/* A bpf_fastcall pattern at fp+0, in dead code of an exception callback:
 * its region top would be fp+8, a stack depth of -8 (65528 as u16).
 * check_max_stack_depth() walks the callback too, so the load was refused
 * as too large (helper-9's review; helper-10 corrected that it never
 * reached the JIT). Pattern slots must lie in the frame, and the removal
 * may only shrink the stack.
 */
__noinline int fastcall_dead_pattern_cb(u64 cookie)
{
	asm volatile ("r0 = 0;"
	"if r0 != 0 goto l0_%=;"
	"goto l1_%=;"
"l0_%=: *(u64 *)(r10 + 0) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 + 0);"
"l1_%=:"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
	return 0;
}

SEC("?tc")
__exception_cb(fastcall_dead_pattern_cb)
int fastcall_dead_pattern(struct __sk_buff *ctx)
{
	bpf_throw(VAL);
	return 1;
}

/* The same at fp-4: the slot starts in the frame but ends above fp, and
 * is misaligned. 280b9db bounded only where a slot starts, and took the
 * region top to fp+4: a depth of 65532 (helper-10's review, F1).
 */
__noinline int fastcall_misaligned_dead_cb(u64 cookie)
{
	asm volatile ("r0 = 0;"
	"if r0 != 0 goto l0_%=;"
	"goto l1_%=;"
"l0_%=: *(u64 *)(r10 - 4) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 4);"
"l1_%=:"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
	return 0;
}

SEC("?tc")
__exception_cb(fastcall_misaligned_dead_cb)
int fastcall_misaligned_dead_pattern(struct __sk_buff *ctx)
{
	bpf_throw(VAL);
	return 1;
}

/* Two pairs at fp-9 and fp-1 in the main program: a top of fp+7. (No
 * other store to the stack: the lowest one is where patterns start.)
 */
SEC("?tc")
__naked int fastcall_misaligned_two_pairs(void)
{
	asm volatile ("r0 = 0;"
	"if r0 != 0 goto l0_%=;"
	"r0 = 7;"
	"exit;"
"l0_%=: *(u64 *)(r10 - 1) = r2;"
	"*(u64 *)(r10 - 9) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 9);"
	"r2 = *(u64 *)(r10 - 1);"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

/* A bpf_fastcall pattern at fp-32768, in dead code of the main program.
 * Pattern matching runs before do_check, on dead code too: pristine 6.12
 * took the slot as the pattern region and sized the frame 32 KiB, so the
 * program was refused as too large. A slot outside the frame is no
 * pattern (helper-9's review): the program loads and returns its fp-8.
 */
SEC("?tc")
__naked int fastcall_far_dead_pattern(void)
{
	asm volatile ("r1 = 7;"
	"*(u64 *)(r10 - 8) = r1;"
	"r0 = 0;"
	"if r0 != 0 goto l0_%=;"
	"r0 = *(u64 *)(r10 - 8);"
	"exit;"
"l0_%=: *(u64 *)(r10 - 32768) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 32768);"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

/* helper-10's F2: a longer pattern in dead code (fp-32 .. fp-8, top 0)
 * beside the live one (fp-32, fp-24, top fp-16). Pristine 6.12 removes
 * the live pair and sizes the subprog's frame 16, so with the caller's
 * 496 bytes the program fits in 512. Counting the dead pattern in the
 * guarded region made the plain store at fp-8 keep all 32 bytes: "combined
 * stack size of 2 calls is 528. Too large". Only patterns that ran count.
 */
__used __naked static void fastcall_dead_long_sub(void)
{
	asm volatile ("r3 = 7;"
	"*(u64 *)(r10 - 8) = r3;"
	"r1 = 1;"
	"r2 = 2;"
	"*(u64 *)(r10 - 24) = r2;"
	"*(u64 *)(r10 - 32) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 32);"
	"r2 = *(u64 *)(r10 - 24);"
	"r0 = *(u64 *)(r10 - 8);"
	"r5 = 0;"
	"if r5 != 0 goto l0_%=;"
	"exit;"
"l0_%=: *(u64 *)(r10 - 8) = r4;"
	"*(u64 *)(r10 - 16) = r3;"
	"*(u64 *)(r10 - 24) = r2;"
	"*(u64 *)(r10 - 32) = r1;"
	"call %[bpf_get_smp_processor_id];"
	"r1 = *(u64 *)(r10 - 32);"
	"r2 = *(u64 *)(r10 - 24);"
	"r3 = *(u64 *)(r10 - 16);"
	"r4 = *(u64 *)(r10 - 8);"
	"exit;"
	:
	: __imm(bpf_get_smp_processor_id)
	: __clobber_all);
}

SEC("?tc")
__naked int fastcall_dead_long_pattern(void)
{
	asm volatile ("r1 = 42;"
	"*(u64 *)(r10 - 496) = r1;"
	"call fastcall_dead_long_sub;"
	"exit;"
	::: __clobber_all);
}

/* ---- Tail calls and extensions ---- */

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
} jmp_table SEC(".maps");

/* Throw VAL with R6-R9 all 0x4141414141414141: a caller's register is
 * then only where this frame's prologue saved it
 */
#define THROW_WITH_JUNK				\
	"r6 = 0x4141414141414141 ll;"		\
	"r7 = r6;"				\
	"r8 = r6;"				\
	"r9 = r6;"				\
	"r1 = %[val];"				\
	"call %[bpf_throw];"			\
	"r0 = 0;"				\
	"exit;"

/* With R2 == 1, a tail call to slot 1, which stays empty, so the call
 * falls through: that makes this subprog and its callers tail call
 * reachable, and their prologues keep the tail call counter slots
 * between the stack and the saved R6-R9. Otherwise it throws with junk
 * in R6-R9, so that the caller's R7 is only in this frame's save area.
 */
__used __naked __noinline static int tail_reach_sub2(void)
{
	asm volatile ("if r2 != 1 goto l0_%=;"
	"r2 = %[jmp_table] ll;"
	"r3 = 1;"
	"call %[bpf_tail_call];"
	"r0 = 0;"
	"exit;"
"l0_%=:" THROW_WITH_JUNK
	:
	: RB_IMMS, __imm_addr(jmp_table), __imm(bpf_tail_call)
	: __clobber_all);
}

/* The tail call first, holding nothing (the verifier refuses a tail call
 * that holds a reference), then the record in R7 across the throwing call:
 * the throw finds R7 where tail_reach_sub2's prologue saved it, below the
 * counter slots (record_saved_callee_regs()).
 */
__used __naked __noinline static void tail_reach_sub(void)
{
	asm volatile ("r6 = r1;"
	"r2 = 1;"
	"call tail_reach_sub2;"
	RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r7 = r0;"
	"r1 = r6;"
	"r2 = 0;"
	"call tail_reach_sub2;"
	"r1 = r7;"
	"r2 = 0;"
	"call %[bpf_ringbuf_discard];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_ringbuf_discard)
	: __clobber_all);
}

SEC("?tc")
__naked int tail_call_reachable(void)
{
	asm volatile ("call tail_reach_sub;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* tail_entry tail-calls slot 0, where user space puts tail_target: the
 * target holds a record in R6 when a subprog throws, in the frame the
 * tail call reused. Its exception callback returns to tail_entry's caller.
 */
SEC("?tc")
int tail_entry(struct __sk_buff *ctx)
{
	bpf_tail_call(ctx, &jmp_table, 0);
	return 1;
}

__used __naked __noinline static void tail_target_sub(void)
{
	asm volatile (THROW_WITH_JUNK
	:
	: RB_IMMS
	: __clobber_all);
}

SEC("?tc")
__naked int tail_target(void)
{
	asm volatile (RB_RESERVE_8
	"if r0 == 0 goto l0_%=;"
	"r6 = r0;"
	"call tail_target_sub;"
	"r1 = r6;"
	"r2 = 0;"
	"call %[bpf_ringbuf_discard];"
"l0_%=: r0 = 0;"
	"exit;"
	:
	: RB_IMMS, __imm(bpf_ringbuf_discard)
	: __clobber_all);
}

/* A global subprog that progs/exceptions_cleanup_ext.c replaces with an
 * extension that throws. The extension is its own exception boundary:
 * its cookie is what the call returns here, and the record this program
 * holds across the call stays its own, submitted with that value.
 */
__noinline int exc_global_work(struct __sk_buff *skb)
{
	return skb ? skb->len : 0;
}

SEC("?tc")
int ext_target(struct __sk_buff *skb)
{
	long *r = bpf_ringbuf_reserve(&rb, 8, 0);
	int ret;

	if (!r)
		return 0;
	ret = exc_global_work(skb);
	*r = ret;
	bpf_ringbuf_submit(r, 0);
	return ret;
}

/* ---- Every program type may throw ----
 *
 * bpf_throw is a kfunc of every program type. Each of these holds a record
 * when it throws, from the context its type runs in: a socket filter, tc,
 * XDP, cgroup skb, flow dissector, raw tracepoint, syscall, sk_lookup and
 * netfilter program run by BPF_PROG_TEST_RUN, a tc action too; fentry,
 * fexit and fmod_ret programs from their trampolines; a kprobe on ftrace
 * and one at an offset (an int3); a tracepoint, a raw and a BTF
 * tracepoint; a perf event; cgroup/sock_create and a sleepable LSM hook,
 * each attached and fired. The cookie is one the type may return; where
 * the hook acts on it (fmod_ret, sock_create, the LSM), user space checks
 * that it did. Others only load.
 */
int throw_now = 1;
int fell_through;	/* set only when a run did not throw */

static __always_inline int hold_and_throw(u64 cookie)
{
	long *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r)
		return cookie;
	if (throw_now)
		bpf_throw(cookie);
	fell_through = 1;
	bpf_ringbuf_discard(r, 0);
	return cookie;
}

#define THROWER(sec, name, cookie)		\
SEC("?" sec)					\
int name(void *ctx)				\
{						\
	return hold_and_throw(cookie);		\
}

THROWER("socket", type_socket, VAL)
THROWER("tc", type_tc, VAL)
THROWER("xdp", type_xdp, VAL)
THROWER("cgroup_skb/ingress", type_cgroup_skb, 1)
THROWER("flow_dissector", type_flow_dissector, VAL)
THROWER("raw_tp", type_raw_tp, VAL)
THROWER("syscall", type_syscall, VAL)
THROWER("sk_lookup", type_sk_lookup, 1)
THROWER("netfilter", type_netfilter, 1)
THROWER("fentry/bpf_fentry_test1", type_fentry, 0)
THROWER("fexit/bpf_fentry_test1", type_fexit, 0)
THROWER("fmod_ret/bpf_modify_return_test", type_fmod_ret, VAL)
THROWER("action", type_sched_act, VAL)
THROWER("kprobe/" SYS_PREFIX "sys_getpgid", type_kprobe, VAL)
/* attached by user space at an offset into the function, off ftrace */
THROWER("kprobe", type_kprobe_int3, VAL)
THROWER("tp/sched/sched_switch", type_tracepoint, VAL)
THROWER("raw_tp/sched_switch", type_raw_tp_attached, 0)
THROWER("tp_btf/sched_switch", type_tp_btf, 0)
THROWER("perf_event", type_perf_event, VAL)
THROWER("lsm/file_open", type_lsm, 0)
/* 0: the socket is refused, so the hook saw the cookie */
THROWER("cgroup/sock_create", type_cgroup_sock, 0)

/* Only from the test's own process, which must then fail with EPERM */
int target_pid;

SEC("?lsm.s/file_open")
int type_lsm_sleepable(void *ctx)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_pid)
		return 0;
	return hold_and_throw(-1);
}
THROWER("cgroup/connect4", type_cgroup_sock_addr, 1)
THROWER("sockops", type_sockops, 1)
THROWER("sk_msg", type_sk_msg, 1)
THROWER("sk_skb/stream_verdict", type_sk_skb, 1)
THROWER("cgroup/sysctl", type_cgroup_sysctl, 1)
THROWER("cgroup/getsockopt", type_cgroup_sockopt, 1)
THROWER("sk_reuseport", type_sk_reuseport, 1)

char _license[] SEC("license") = "GPL";

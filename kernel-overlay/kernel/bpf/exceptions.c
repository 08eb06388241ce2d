// SPDX-License-Identifier: GPL-2.0-only
/* Which subprogs of a BPF program may throw a BPF exception.
 *
 * do_check() does not descend into calls of global subprogs: they are
 * verified on their own, assuming nothing about their callers. So at a call
 * of a global subprog it does not see a bpf_throw that the callee reaches,
 * and would accept a caller that holds a reference or lock across such a
 * call, which the exception then leaks. Before do_check(), mark every
 * subprog from which bpf_throw is reachable through calls, so that
 * do_check() also explores the path on which such a call throws.
 */
#include <linux/bitmap.h>
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>

struct throw_walk {
	struct bpf_call_walk w;
	/* subprogs whose is_throw_reachable is final */
	DECLARE_BITMAP(done, BPF_MAX_SUBPROGS + 2);
};

static struct throw_walk *to_throw_walk(struct bpf_call_walk *w)
{
	return container_of(w, struct throw_walk, w);
}

static int throw_walk_on_throw(struct bpf_verifier_env *env,
			       struct bpf_call_walk *w, int idx, int i)
{
	env->subprog_info[idx].is_throw_reachable = true;
	return 0;
}

/* A reference to a callback is not a call: the callback runs from a helper
 * or kfunc, or later, and an exception cannot unwind through the kernel
 * frames between. bpf_throw in a callback, or in anything a callback calls,
 * stays rejected by check_max_stack_depth_subprog(). So callback references
 * are not followed; if throwing from sync callbacks is ever allowed, they
 * must be. Not following them also spares knowing, before do_check(),
 * which callbacks are sync and which async.
 */
static int throw_walk_on_call(struct bpf_verifier_env *env,
			      struct bpf_call_walk *w, int idx, int i,
			      int callee)
{
	struct bpf_subprog_info *subprog = env->subprog_info;

	if (bpf_pseudo_func(&env->prog->insnsi[i]))
		return BPF_CALL_WALK_SKIP;
	if (!test_bit(callee, to_throw_walk(w)->done))
		return BPF_CALL_WALK_DESCEND;
	/* Walked already from another call site: reuse its result */
	if (subprog[callee].is_throw_reachable)
		subprog[idx].is_throw_reachable = true;
	return BPF_CALL_WALK_SKIP;
}

/* All callees of @idx are done, so its mark is final: pass it to the caller */
static int throw_walk_on_leave(struct bpf_verifier_env *env,
			       struct bpf_call_walk *w, int idx)
{
	struct bpf_subprog_info *subprog = env->subprog_info;

	__set_bit(idx, to_throw_walk(w)->done);
	if (w->frame && subprog[idx].is_throw_reachable)
		subprog[w->ret_prog[w->frame - 1]].is_throw_reachable = true;
	return 0;
}

static const struct bpf_call_walk_ops throw_walk_ops = {
	.on_throw = throw_walk_on_throw,
	.on_call = throw_walk_on_call,
	.on_leave = throw_walk_on_leave,
};

/* Set is_throw_reachable on every subprog that calls bpf_throw, directly or
 * through calls of other subprogs. Each subprog is walked once: a callee
 * walked before is not walked again, its mark is propagated bottom-up.
 */
int bpf_mark_throw_reachable_subprogs(struct bpf_verifier_env *env)
{
	struct throw_walk tw = { .w.ops = &throw_walk_ops };
	int i, err;

	/* Nothing can throw, don't walk the program */
	if (!env->seen_throw_insn)
		return 0;

	for (i = 0; i < env->subprog_cnt; i++) {
		if (test_bit(i, tw.done))
			continue;
		err = bpf_walk_call_chains(env, &tw.w, i);
		if (err)
			return err;
	}
	return 0;
}

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
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/bsearch.h>
#include <linux/filter.h>
#include <linux/slab.h>
#include <linux/sort.h>

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
	struct bpf_prog_aux *aux = env->prog->aux;
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
	/* for tracing programs that attach to a subprog later */
	if (aux->func_info_aux)
		for (i = 0; i < min(env->subprog_cnt, aux->func_info_cnt); i++)
			aux->func_info_aux[i].throw_reachable =
				env->subprog_info[i].is_throw_reachable;
	return 0;
}

/* Frame descriptors.
 *
 * When bpf_throw unwinds the BPF frames of a program, it must release the
 * resources they hold: ring buffer records and dynptrs, bpf_obj_new
 * objects, referenced kernel pointers, open-coded iterators. At every
 * throw point the verifier therefore records, for each frame on the call
 * stack, a descriptor keyed by the frame's pc: which stack slots and which
 * callee-saved registers (R6-R9) hold which resource. The pc of the
 * throwing frame is the throw itself (a bpf_throw call, or the call of a
 * global subprog that throws), that of a caller frame its call insn; at
 * run time both are the return address of the frame's call.
 *
 * The same pc may be reached on several paths. Their descriptors must
 * agree, since at run time nothing tells the paths apart: a location may
 * hold the same kind of resource on all paths, or NULL on some of them
 * (conditional acquisition), or no resource on any. Anything else, such as
 * a scalar on one path where another holds a ring buffer record, rejects
 * the program: the unwinder would pass the scalar to the release function.
 */

/* What a location holds on one path, from least to most demanding */
enum bpf_exc_what {
	BPF_EXC_UNINIT,		/* uninitialized stack or register */
	BPF_EXC_MISC,		/* stack data that is not a spilled register */
	BPF_EXC_SCALAR,		/* a scalar not known to be zero */
	BPF_EXC_ZERO,		/* NULL: merges with a resource pointer */
	BPF_EXC_PTR,		/* a pointer that holds no reference */
	BPF_EXC_COPY,		/* a copy of, or a pointer into, a resource
				 * that is released from another location
				 */
	BPF_EXC_PART,		/* a dynptr or iterator that holds nothing,
				 * or a later slot of one that does
				 */
	BPF_EXC_RES_PTR,	/* a resource: release its value */
	BPF_EXC_RES_OBJ,	/* a dynptr or iterator: release its address */
};

typedef void (*bpf_exc_release_t)(void *obj, void *arg);

struct bpf_exc_loc {
	s16 off;		/* stack slot: offset from the frame pointer */
	u8 regno;		/* or callee-saved register, BPF_REG_6..9 */
	u8 what;		/* enum bpf_exc_what */
	bool has_value;		/* value is that of a known scalar */
	s32 obj_off;		/* a BTF pointer this far into its object */
	u32 type;		/* register type, or dynptr type */
	u32 btf_id;
	struct btf *btf;	/* not dereferenced after the load */
	s64 value;
	bpf_exc_release_t release;
	void *arg;
};

struct bpf_exc_frame_desc {
	u32 pc;			/* insn index; once jited, the offset of the
				 * return address in the (sub)prog image
				 */
	u32 cnt;
	struct bpf_exc_loc loc[];	/* sorted by loc_key() */
};

struct bpf_exc_tab {
	u32 cnt;
	u32 cap;
	struct bpf_exc_frame_desc **desc;	/* sorted by pc */
	struct bpf_exc_loc *scratch;		/* one frame of the current path */
	size_t bytes;				/* allocated for descriptors */
};

#define verbose(env, fmt, args...) bpf_log(&(env)->log, fmt, ##args)

#define BPF_EXC_MAX_LOCS	(4 + MAX_BPF_STACK / BPF_REG_SIZE)
/* Bounds on what the descriptors of one program may take, which grows with
 * the throw sites times their frames: inserting one is linear in the count.
 */
#define BPF_EXC_MAX_DESCS	16384
#define BPF_EXC_MAX_BYTES	(16 << 20)
#define BPF_EXC_GFP		(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

/* R6-R9 first, then the stack from the frame pointer down */
static int loc_key(const struct bpf_exc_loc *loc)
{
	return loc->regno ? loc->regno : BPF_REG_FP - loc->off;
}

static bool is_resource(const struct bpf_exc_loc *loc)
{
	return loc->what >= BPF_EXC_RES_PTR;
}

/* Release functions. Those taking a value are not called for NULL. */
static void release_ringbuf_record(void *rec, void *arg)
{
	bpf_ringbuf_discard_proto.func((unsigned long)rec, 0, 0, 0, 0);
}

static void release_ringbuf_dynptr(void *dynptr, void *arg)
{
	bpf_ringbuf_discard_dynptr_proto.func((unsigned long)dynptr, 0, 0, 0, 0);
}

static void release_obj(void *obj, void *rec)
{
	__bpf_obj_drop_impl(obj, rec, false);
}

static void release_percpu_obj(void *obj, void *rec)
{
	__bpf_obj_drop_impl(obj, rec, true);
}

static void release_by_dtor(void *obj, void *dtor)
{
	((btf_cleanup_dtor_t)dtor)(obj);
}

#ifdef CONFIG_INET
static void release_socket(void *sk, void *arg)
{
	bpf_sk_release_on_throw(sk);
}

/* Sockets from bpf_sk_lookup_*() and bpf_skc_lookup_tcp(), sockmap and
 * sockhash lookups, and what the cast helpers (bpf_tcp_sock(),
 * bpf_skc_to_tcp_sock(), ...) return for them: all point to the socket
 * itself, which bpf_sk_release() takes.
 */
static bool is_socket(const struct bpf_exc_loc *loc)
{
	int i;

	switch (base_type(loc->type)) {
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
		return true;
	case PTR_TO_BTF_ID:
		if (loc->btf != bpf_get_btf_vmlinux())
			return false;
		for (i = 0; i < MAX_BTF_SOCK_TYPE; i++)
			if (i != BTF_SOCK_TYPE_SOCKET && btf_sock_ids[i] == loc->btf_id)
				return true;
		return false;
	default:
		return false;
	}
}

/* Set the release of @loc if it holds a socket */
static bool resolve_socket_release(struct bpf_exc_loc *loc)
{
	if (!is_socket(loc))
		return false;
	loc->release = release_socket;
	return true;
}

/* The type of the pointer that acquired reference @ref_obj_id: only
 * bpf_skc_lookup_tcp() returns a sock_common, the other socket lookups
 * return a socket.
 */
static enum bpf_reg_type acquired_sock_type(struct bpf_verifier_env *env,
					    u32 ref_obj_id)
{
	const struct bpf_verifier_state *st = env->cur_state;
	const struct bpf_func_state *cur = st->frame[st->curframe];
	const struct bpf_insn *insn;
	int i;

	for (i = 0; i < cur->acquired_refs; i++) {
		if (cur->refs[i].id != ref_obj_id)
			continue;
		insn = &env->prog->insnsi[cur->refs[i].insn_idx];
		if (insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg &&
		    insn->imm == BPF_FUNC_skc_lookup_tcp)
			return PTR_TO_SOCK_COMMON;
		break;
	}
	return PTR_TO_SOCKET;
}

/* Whether @loc holds a cast of a socket, sharing the socket's reference:
 * what bpf_sk_fullsock(), bpf_tcp_sock() and bpf_skc_to_*() return may be
 * NULL where the socket is not, or point to another object
 * (bpf_skc_to_mptcp_sock()). Only the pointer the lookup returned may be
 * released. (bpf_sk_fullsock() of a socket is the socket itself.)
 */
static bool is_socket_cast(struct bpf_verifier_env *env,
			   const struct bpf_exc_loc *loc, u32 ref_obj_id)
{
	return is_socket(loc) &&
	       base_type(loc->type) != acquired_sock_type(env, ref_obj_id);
}
#else
static bool resolve_socket_release(struct bpf_exc_loc *loc)
{
	return false;
}

static bool is_socket_cast(struct bpf_verifier_env *env,
			   const struct bpf_exc_loc *loc, u32 ref_obj_id)
{
	return false;
}
#endif

/* The cleanup destructor registered for the type of @loc, resolved when
 * the program is loaded so that the throw path does not look it up.
 */
static int resolve_dtor(struct bpf_exc_loc *loc)
{
	btf_cleanup_dtor_t dtor = btf_find_cleanup_dtor(loc->btf, loc->btf_id);

	if (!dtor)
		return -ENOENT;
	loc->release = release_by_dtor;
	loc->arg = dtor;
	return 0;
}

static int resolve_btf_ptr_release(struct bpf_exc_loc *loc)
{
	if (loc->type & MEM_ALLOC) {
		struct btf_struct_meta *meta;

		meta = btf_find_struct_meta(loc->btf, loc->btf_id);
		loc->release = loc->type & MEM_PERCPU ? release_percpu_obj :
							release_obj;
		loc->arg = meta ? meta->record : NULL;
		return 0;
	}
	return resolve_dtor(loc);
}

/* Pick the release function of the resource @loc holds, or fail if
 * nothing registered one for its type.
 */
static int resolve_release(struct bpf_exc_loc *loc)
{
	if (loc->what == BPF_EXC_RES_OBJ) {
		/* an iterator, destroyed by its registered destroy kfunc */
		if (loc->btf)
			return resolve_dtor(loc);
		loc->release = release_ringbuf_dynptr;
		return 0;
	}
	if (base_type(loc->type) == PTR_TO_MEM && (loc->type & MEM_RINGBUF)) {
		loc->release = release_ringbuf_record;
		return 0;
	}
	if (resolve_socket_release(loc))
		return 0;
	if (base_type(loc->type) == PTR_TO_BTF_ID)
		return resolve_btf_ptr_release(loc);
	return -ENOENT;
}

static const char *loc_where(const struct bpf_exc_loc *loc, char *buf, size_t n)
{
	if (loc->regno)
		snprintf(buf, n, "R%d", loc->regno);
	else
		snprintf(buf, n, "fp%d", loc->off);
	return buf;
}

static const char *loc_type_str(struct bpf_verifier_env *env,
				const struct bpf_exc_loc *loc, char *buf,
				size_t n)
{
	const char *btf_name = "";

	if (loc->btf) {
		const struct btf_type *t = btf_type_by_id(loc->btf, loc->btf_id);

		btf_name = t ? btf_name_by_offset(loc->btf, t->name_off) : "?";
	}
	switch (loc->what) {
	case BPF_EXC_UNINIT:
		return loc->regno ? "uninitialized register" : "uninitialized stack";
	case BPF_EXC_MISC:
		return "misc data";
	case BPF_EXC_SCALAR:
		if (!loc->has_value)
			return "scalar";
		snprintf(buf, n, "scalar %lld", loc->value);
		return buf;
	case BPF_EXC_ZERO:
		return "NULL";
	case BPF_EXC_PTR:
		snprintf(buf, n, "%s%s (no reference)",
			 reg_type_str(env, loc->type), btf_name);
		return buf;
	case BPF_EXC_COPY:
		snprintf(buf, n, "%s%s (a copy released from elsewhere)",
			 reg_type_str(env, loc->type), btf_name);
		return buf;
	case BPF_EXC_PART:
		return "part of a dynptr or iterator";
	case BPF_EXC_RES_PTR:
		if (loc->obj_off)
			snprintf(buf, n, "%s%s at offset %d", reg_type_str(env, loc->type),
				 btf_name, loc->obj_off);
		else
			snprintf(buf, n, "%s%s", reg_type_str(env, loc->type), btf_name);
		return buf;
	case BPF_EXC_RES_OBJ:
		if (!loc->btf)
			return "ringbuf dynptr";
		snprintf(buf, n, "iter %s", btf_name);
		return buf;
	}
	return "?";
}

/* A cast of a socket, where it was first seen */
struct exc_cast {
	u32 ref_obj_id;
	int frameno;
	struct bpf_exc_loc loc;
};

/* The state of one throw: which references were found, in which order,
 * and which were seen as casts
 */
struct exc_throw {
	struct bpf_verifier_env *env;
	int frameno;
	u32 *ids;
	u32 nr_ids;
	u32 max_ids;
	struct exc_cast *casts;
	u32 nr_casts;
};

static bool claimed(const struct exc_throw *t, u32 ref_obj_id)
{
	u32 i;

	for (i = 0; i < t->nr_ids; i++)
		if (t->ids[i] == ref_obj_id)
			return true;
	return false;
}

static bool ref_held(struct bpf_verifier_env *env, u32 ref_obj_id)
{
	const struct bpf_verifier_state *st = env->cur_state;
	const struct bpf_func_state *cur = st->frame[st->curframe];
	int i;

	for (i = 0; i < cur->acquired_refs; i++)
		if (cur->refs[i].id == ref_obj_id)
			return true;
	return false;
}

/* A reference is released from the first location it is found in; the
 * others hold copies of it. The verifier releases all copies at once too.
 */
static bool claim_ref(struct exc_throw *t, u32 ref_obj_id)
{
	/* an id the state no longer holds was released already: whatever
	 * still carries it must not be released again
	 */
	if (!ref_held(t->env, ref_obj_id) || claimed(t, ref_obj_id))
		return false;
	/* more references in frames than the state holds: leave it alone,
	 * the reference check will complain
	 */
	if (WARN_ON_ONCE(t->nr_ids == t->max_ids))
		return false;
	t->ids[t->nr_ids++] = ref_obj_id;
	return true;
}

/* Remember the first cast of each reference, to name it if the socket
 * itself is not held anywhere
 */
static void note_cast(struct exc_throw *t, const struct bpf_exc_loc *loc,
		      u32 ref_obj_id)
{
	u32 i;

	for (i = 0; i < t->nr_casts; i++)
		if (t->casts[i].ref_obj_id == ref_obj_id)
			return;
	if (WARN_ON_ONCE(t->nr_casts == t->max_ids))
		return;
	t->casts[t->nr_casts++] = (struct exc_cast){
		.ref_obj_id = ref_obj_id, .frameno = t->frameno, .loc = *loc };
}

/* A socket held only as a cast cannot be released */
static int reject_lone_casts(struct exc_throw *t)
{
	char where[16], type[64];
	u32 i;

	for (i = 0; i < t->nr_casts; i++) {
		struct exc_cast *c = &t->casts[i];

		if (claimed(t, c->ref_obj_id))
			continue;
		c->loc.what = BPF_EXC_RES_PTR;
		verbose(t->env, "bpf_throw at insn %d: frame %d %s holds %s, a cast of a socket that no frame holds; bpf_throw releases the socket the lookup returned, keep it until the throw\n",
			t->env->insn_idx, c->frameno,
			loc_where(&c->loc, where, sizeof(where)),
			loc_type_str(t->env, &c->loc, type, sizeof(type)));
		return -EINVAL;
	}
	return 0;
}

static int resolve_or_reject(struct exc_throw *t, struct bpf_exc_loc *loc)
{
	char where[16], type[64];

	if (!resolve_release(loc))
		return 0;
	verbose(t->env, "bpf_throw at insn %d: frame %d %s holds %s, which bpf_throw cannot release\n",
		t->env->insn_idx, t->frameno, loc_where(loc, where, sizeof(where)),
		loc_type_str(t->env, loc, type, sizeof(type)));
	return -EINVAL;
}

static int loc_from_reg(struct exc_throw *t, struct bpf_exc_loc *loc,
			const struct bpf_reg_state *reg)
{
	if (reg->type == NOT_INIT) {
		loc->what = BPF_EXC_UNINIT;
		return 0;
	}
	if (reg->type == SCALAR_VALUE) {
		loc->has_value = tnum_is_const(reg->var_off);
		loc->value = reg->var_off.value;
		loc->what = loc->has_value && !loc->value ? BPF_EXC_ZERO :
							     BPF_EXC_SCALAR;
		return 0;
	}
	loc->type = reg->type & ~PTR_MAYBE_NULL;
	if (base_type(reg->type) == PTR_TO_BTF_ID) {
		loc->btf = reg->btf;
		loc->btf_id = reg->btf_id;
	}
	if (!reg->ref_obj_id) {
		loc->what = BPF_EXC_PTR;
		return 0;
	}
	/* Slices of dynptrs share the dynptr's reference. A pointer with an
	 * offset is not what the release function takes, except a BTF one at
	 * a known offset: the node bpf_list_pop_front() and
	 * bpf_rbtree_remove() return, until container_of(). Its object starts
	 * reg->off before it, which the verifier knows exactly.
	 */
	if ((base_type(reg->type) == PTR_TO_MEM && !(reg->type & MEM_RINGBUF)) ||
	    (reg->off && base_type(reg->type) != PTR_TO_BTF_ID) ||
	    !tnum_equals_const(reg->var_off, 0)) {
		loc->what = BPF_EXC_COPY;
		return 0;
	}
	if (is_socket_cast(t->env, loc, reg->ref_obj_id)) {
		loc->what = BPF_EXC_COPY;
		note_cast(t, loc, reg->ref_obj_id);
		return 0;
	}
	if (!claim_ref(t, reg->ref_obj_id)) {
		loc->what = BPF_EXC_COPY;
		return 0;
	}
	loc->what = BPF_EXC_RES_PTR;
	loc->obj_off = reg->off;
	return resolve_or_reject(t, loc);
}

static int loc_from_dynptr(struct exc_throw *t, struct bpf_exc_loc *loc,
			   const struct bpf_reg_state *reg)
{
	loc->what = BPF_EXC_PART;
	if (!reg->dynptr.first_slot || !reg->ref_obj_id)
		return 0;
	if (reg->dynptr.type != BPF_DYNPTR_TYPE_RINGBUF) {
		verbose(t->env, "verifier internal error: refcounted dynptr type %d\n",
			reg->dynptr.type);
		return -EFAULT;
	}
	loc->type = reg->dynptr.type;
	/* a clone of a dynptr released from another slot */
	if (!claim_ref(t, reg->ref_obj_id)) {
		loc->what = BPF_EXC_COPY;
		loc->type = PTR_TO_STACK;
		return 0;
	}
	loc->what = BPF_EXC_RES_OBJ;
	return resolve_or_reject(t, loc);
}

static bool slot_all(const struct bpf_stack_state *slot, u8 type)
{
	int i;

	for (i = 0; i < BPF_REG_SIZE; i++)
		if (slot->slot_type[i] != type)
			return false;
	return true;
}

/* Whether the iterator whose first slot is stack[@spi] can be destroyed:
 * 0, or the error bpf_iter_slots_valid() gives. A program may write over
 * the slots of an iterator, or keep it past the RCU section it needs: the
 * verifier then refuses the next and destroy calls on it. A throw destroys
 * it without such a call, with whatever the program left in its slots, so
 * it checks it the same way, or the destructor frees or unlinks a pointer
 * the program wrote. @bad_spi is set to the slot found wrong.
 */
static int iter_check(const struct bpf_func_state *frame, int spi,
		      int *bad_spi)
{
	const struct bpf_reg_state *first = &frame->stack[spi].spilled_ptr;
	const struct btf_type *type;
	int nr_slots;

	*bad_spi = spi;
	type = btf_type_by_id(first->iter.btf, first->iter.btf_id);
	nr_slots = type ? type->size / BPF_REG_SIZE : 0;
	if (!nr_slots || nr_slots > spi + 1)
		return -EINVAL;
	return bpf_iter_slots_valid(frame, spi, first->iter.btf,
				    first->iter.btf_id, nr_slots, bad_spi);
}

static int loc_from_iter(struct exc_throw *t, struct bpf_exc_loc *loc,
			 const struct bpf_func_state *frame, int spi)
{
	const struct bpf_reg_state *reg = &frame->stack[spi].spilled_ptr;
	char where[16], type[64];
	int bad_spi;

	loc->what = BPF_EXC_PART;
	/* only the first slot of an iterator holds its reference */
	if (!reg->ref_obj_id || !claim_ref(t, reg->ref_obj_id))
		return 0;
	loc->what = BPF_EXC_RES_OBJ;
	loc->btf = reg->iter.btf;
	loc->btf_id = reg->iter.btf_id;
	switch (iter_check(frame, spi, &bad_spi)) {
	case 0:
		return resolve_or_reject(t, loc);
	case -EINVAL:
		verbose(t->env,
			"bpf_throw at insn %d: frame %d %s holds %s, whose slot fp%d the program wrote to; bpf_throw cannot destroy a changed iterator, destroy it before writing there\n",
			t->env->insn_idx, t->frameno,
			loc_where(loc, where, sizeof(where)),
			loc_type_str(t->env, loc, type, sizeof(type)),
			-(bad_spi + 1) * BPF_REG_SIZE);
		return -EINVAL;
	case -EPROTO:
		verbose(t->env,
			"bpf_throw at insn %d: frame %d %s holds %s outside the RCU read lock it needs; bpf_throw cannot destroy it, destroy it before bpf_rcu_read_unlock()\n",
			t->env->insn_idx, t->frameno,
			loc_where(loc, where, sizeof(where)),
			loc_type_str(t->env, loc, type, sizeof(type)));
		return -EINVAL;
	}
	return -EFAULT;
}

static int loc_from_slot(struct exc_throw *t, struct bpf_exc_loc *loc,
			 const struct bpf_func_state *frame, int spi)
{
	const struct bpf_stack_state *slot = &frame->stack[spi];

	switch (slot->slot_type[BPF_REG_SIZE - 1]) {
	case STACK_SPILL:
		/* narrower spills are scalars: data, as far as release goes */
		if (slot_all(slot, STACK_SPILL))
			return loc_from_reg(t, loc, &slot->spilled_ptr);
		loc->what = BPF_EXC_MISC;
		return 0;
	case STACK_DYNPTR:
		return loc_from_dynptr(t, loc, &slot->spilled_ptr);
	case STACK_ITER:
		return loc_from_iter(t, loc, frame, spi);
	case STACK_ZERO:
		loc->what = slot_all(slot, STACK_ZERO) ? BPF_EXC_ZERO : BPF_EXC_MISC;
		return 0;
	case STACK_MISC:
		loc->what = BPF_EXC_MISC;
		return 0;
	case STACK_INVALID:
		loc->what = slot_all(slot, STACK_INVALID) ? BPF_EXC_UNINIT :
							    BPF_EXC_MISC;
		return 0;
	}
	verbose(t->env, "verifier internal error: frame %d stack slot type %d at throw\n",
		t->frameno, slot->slot_type[BPF_REG_SIZE - 1]);
	return -EFAULT;
}

/* Describe every callee-saved register and stack slot of @frame. An
 * uninitialized location is left out: merge_desc() takes a missing one
 * for uninitialized, and most of a frame usually is.
 */
static int describe_frame(struct exc_throw *t, const struct bpf_func_state *frame,
			  struct bpf_exc_loc *locs, u32 *cnt)
{
	int i, n = 0, err;

	for (i = BPF_REG_6; i <= BPF_REG_9; i++) {
		locs[n] = (struct bpf_exc_loc){ .regno = i };
		err = loc_from_reg(t, &locs[n], &frame->regs[i]);
		if (err)
			return err;
		n += locs[n].what != BPF_EXC_UNINIT;
	}
	for (i = 0; i < frame->allocated_stack / BPF_REG_SIZE; i++) {
		locs[n] = (struct bpf_exc_loc){ .off = -(i + 1) * BPF_REG_SIZE };
		err = loc_from_slot(t, &locs[n], frame, i);
		if (err)
			return err;
		n += locs[n].what != BPF_EXC_UNINIT;
	}
	*cnt = n;
	return 0;
}

/* Merge what a location holds on this path (@cur) into what it held on the
 * paths seen before (@old).
 */
static int merge_loc(const struct bpf_exc_loc *old, const struct bpf_exc_loc *cur,
		     struct bpf_exc_loc *out)
{
	if (is_resource(old) && is_resource(cur)) {
		/* released the same way on both paths */
		if (old->what != cur->what || old->release != cur->release ||
		    old->arg != cur->arg || old->obj_off != cur->obj_off)
			return -EINVAL;
		*out = *old;
		return 0;
	}
	if (is_resource(old) || is_resource(cur)) {
		const struct bpf_exc_loc *res = is_resource(old) ? old : cur;
		const struct bpf_exc_loc *other = res == old ? cur : old;

		/* NULL is released as nothing, by a function taking values */
		if (other->what != BPF_EXC_ZERO || res->what != BPF_EXC_RES_PTR)
			return -EINVAL;
		*out = *res;
		return 0;
	}
	/* No resource here on either path. Keep what is not NULL, so that a
	 * resource here on a later path conflicts with it.
	 */
	*out = old->what == BPF_EXC_ZERO ? *cur : *old;
	return 0;
}

static void merge_failed(struct bpf_verifier_env *env, int frameno,
			 const struct bpf_exc_loc *old,
			 const struct bpf_exc_loc *cur)
{
	char where[16], old_type[64], cur_type[64];

	verbose(env, "bpf_throw at insn %d: frame %d %s holds %s on one path and %s on another; release it, or hold the same kind of resource or NULL there on every path\n",
		env->insn_idx, frameno, loc_where(cur, where, sizeof(where)),
		loc_type_str(env, cur, cur_type, sizeof(cur_type)),
		loc_type_str(env, old, old_type, sizeof(old_type)));
}

static struct bpf_exc_frame_desc *alloc_desc(struct bpf_exc_tab *tab, u32 pc,
					     u32 cnt)
{
	struct bpf_exc_frame_desc *desc;
	size_t size = struct_size(desc, loc, cnt);

	desc = kmalloc(size, BPF_EXC_GFP);
	if (!desc)
		return NULL;
	desc->pc = pc;
	desc->cnt = cnt;
	tab->bytes += size;
	return desc;
}

static void free_desc(struct bpf_exc_tab *tab, struct bpf_exc_frame_desc *desc)
{
	tab->bytes -= struct_size(desc, loc, desc->cnt);
	kfree(desc);
}

/* Keep the first @n locations. Returns @desc, or a smaller copy of it. */
static struct bpf_exc_frame_desc *
shrink_desc(struct bpf_exc_tab *tab, struct bpf_exc_frame_desc *desc, u32 n)
{
	struct bpf_exc_frame_desc *p;

	p = krealloc(desc, struct_size(desc, loc, n), BPF_EXC_GFP);
	if (p) {
		tab->bytes -= (p->cnt - n) * sizeof(p->loc[0]);
		desc = p;
	} else {
		/* still all allocated */
		tab->bytes -= (desc->cnt - n) * sizeof(desc->loc[0]);
	}
	desc->cnt = n;
	return desc;
}

/* Merge the sorted @locs of this path into @old, as a new descriptor. A
 * location missing on one side is uninitialized there.
 */
static struct bpf_exc_frame_desc *
merge_desc(struct exc_throw *t, struct bpf_exc_tab *tab,
	   const struct bpf_exc_frame_desc *old, const struct bpf_exc_loc *locs,
	   u32 cnt)
{
	struct bpf_exc_frame_desc *desc;
	u32 i = 0, j = 0, n = 0;
	int err;

	desc = alloc_desc(tab, old->pc, old->cnt + cnt);
	if (!desc)
		return ERR_PTR(-ENOMEM);
	while (i < old->cnt || j < cnt) {
		struct bpf_exc_loc o, c;
		int ko = i < old->cnt ? loc_key(&old->loc[i]) : INT_MAX;
		int kc = j < cnt ? loc_key(&locs[j]) : INT_MAX;

		o = ko <= kc ? old->loc[i++] : (struct bpf_exc_loc){
			.regno = locs[j].regno, .off = locs[j].off };
		c = kc <= ko ? locs[j++] : (struct bpf_exc_loc){
			.regno = o.regno, .off = o.off };
		err = merge_loc(&o, &c, &desc->loc[n]);
		if (err) {
			merge_failed(t->env, t->frameno, &o, &c);
			free_desc(tab, desc);
			return ERR_PTR(err);
		}
		n += desc->loc[n].what != BPF_EXC_UNINIT;
	}
	return shrink_desc(tab, desc, n);
}

static int desc_pos(const struct bpf_exc_tab *tab, u32 pc)
{
	int lo = 0, hi = tab->cnt;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (tab->desc[mid]->pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert_desc(struct bpf_exc_tab *tab, int pos,
		       struct bpf_exc_frame_desc *desc)
{
	if (tab->cnt == tab->cap) {
		u32 cap = max(8u, tab->cap * 2);
		struct bpf_exc_frame_desc **p;

		p = krealloc_array(tab->desc, cap, sizeof(*p), BPF_EXC_GFP);
		if (!p)
			return -ENOMEM;
		tab->bytes += (cap - tab->cap) * sizeof(*p);
		tab->desc = p;
		tab->cap = cap;
	}
	memmove(tab->desc + pos + 1, tab->desc + pos,
		(tab->cnt - pos) * sizeof(*tab->desc));
	tab->desc[pos] = desc;
	tab->cnt++;
	return 0;
}

static void log_frame(struct bpf_verifier_env *env, int frameno, u32 pc,
		      const struct bpf_exc_loc *locs, u32 cnt, const char *what)
{
	char where[16], type[64];
	u32 i;

	if (!(env->log.level & BPF_LOG_LEVEL2))
		return;
	verbose(env, "frame_desc: %s insn %d frame %d pc %u:", what,
		env->insn_idx, frameno, pc);
	for (i = 0; i < cnt; i++) {
		if (locs[i].what == BPF_EXC_UNINIT)
			continue;
		verbose(env, " %s=%s", loc_where(&locs[i], where, sizeof(where)),
			loc_type_str(env, &locs[i], type, sizeof(type)));
	}
	verbose(env, "\n");
}

static int record_frame(struct exc_throw *t, struct bpf_exc_tab *tab, u32 pc,
			const struct bpf_exc_loc *locs, u32 cnt)
{
	struct bpf_exc_frame_desc *desc;
	int pos = desc_pos(tab, pc);
	int err;

	log_frame(t->env, t->frameno, pc, locs, cnt, "throw at");
	if (tab->bytes > BPF_EXC_MAX_BYTES ||
	    (tab->cnt >= BPF_EXC_MAX_DESCS && !(pos < tab->cnt && tab->desc[pos]->pc == pc))) {
		verbose(t->env, "bpf_throw at insn %d: the throws need more than %d frame descriptors or %d MiB for them; throw from fewer places, or through fewer frames\n",
			t->env->insn_idx, BPF_EXC_MAX_DESCS, BPF_EXC_MAX_BYTES >> 20);
		return -E2BIG;
	}
	if (pos < tab->cnt && tab->desc[pos]->pc == pc) {
		desc = merge_desc(t, tab, tab->desc[pos], locs, cnt);
		if (IS_ERR(desc))
			return PTR_ERR(desc);
		free_desc(tab, tab->desc[pos]);
		tab->desc[pos] = desc;
		log_frame(t->env, t->frameno, pc, desc->loc, desc->cnt, "merged at");
		return 0;
	}
	desc = alloc_desc(tab, pc, cnt);
	if (!desc)
		return -ENOMEM;
	memcpy(desc->loc, locs, cnt * sizeof(*locs));
	err = insert_desc(tab, pos, desc);
	if (err)
		free_desc(tab, desc);
	return err;
}

static struct bpf_exc_tab *get_tab(struct bpf_verifier_env *env)
{
	struct bpf_prog_aux *aux = env->prog->aux;
	struct bpf_exc_tab *tab = aux->exc_tab;

	if (tab)
		return tab;
	tab = kzalloc(sizeof(*tab), BPF_EXC_GFP);
	if (!tab)
		return NULL;
	tab->scratch = kvcalloc(BPF_EXC_MAX_LOCS, sizeof(*tab->scratch),
				BPF_EXC_GFP);
	if (!tab->scratch) {
		kfree(tab);
		return NULL;
	}
	aux->exc_tab = tab;
	return tab;
}

/**
 * bpf_exc_record_throw() - record the frame descriptors of a throw
 * @env: the verifier, at a throw of the current state
 * @ids: the references found, one per resource, to be released by the
 *       caller
 * @max_ids: room in @ids: the number of references the current frame holds
 * @nr_ids: number of them
 *
 * Describe every frame of the current state at the throw, innermost first,
 * and merge the descriptions with those of earlier paths reaching the
 * same pcs.
 *
 * Return: 0, or a negative error if the paths conflict or a resource
 * cannot be released.
 */
int bpf_exc_record_throw(struct bpf_verifier_env *env, u32 *ids, u32 max_ids,
			 u32 *nr_ids)
{
	struct bpf_verifier_state *st = env->cur_state;
	struct exc_throw t = { .env = env, .ids = ids, .max_ids = max_ids };
	struct bpf_exc_tab *tab = get_tab(env);
	int fr, err = 0;

	if (!tab)
		return -ENOMEM;
	t.casts = kvcalloc(max(max_ids, 1), sizeof(*t.casts), BPF_EXC_GFP);
	if (!t.casts)
		return -ENOMEM;
	for (fr = st->curframe; fr >= 0 && !err; fr--) {
		u32 pc = fr == st->curframe ? env->insn_idx : st->frame[fr + 1]->callsite;
		u32 cnt;

		t.frameno = fr;
		err = describe_frame(&t, st->frame[fr], tab->scratch, &cnt);
		if (!err)
			err = record_frame(&t, tab, pc, tab->scratch, cnt);
	}
	err = err ?: reject_lone_casts(&t);
	kvfree(t.casts);
	if (err)
		return err;
	*nr_ids = t.nr_ids;
	if (env->log.level & BPF_LOG_LEVEL2)
		verbose(env, "frame_desc: %u descriptors, %zu bytes\n",
			tab->cnt, tab->bytes);
	return 0;
}

/**
 * bpf_exc_patched_pos() - where a patch keeps the insn it replaces
 * @env: the verifier, about to replace the insn at @off with @patch
 * @off: the insn
 * @patch: the insns replacing it
 * @len: their number
 *
 * A descriptor at @off must follow its insn, the call of a frame, into the
 * patch: a tc prologue patched in at insn 0 ends with the original insn, a
 * hidden subprog appended at the end starts with it. The patch must hold a
 * copy of it; a pass that rewrote a call a descriptor refers to cannot be
 * followed, and the program is refused.
 *
 * Return: the index in @patch of the insn at @off (0 if no descriptor is
 * at @off), or -EFAULT.
 */
int bpf_exc_patched_pos(struct bpf_verifier_env *env, u32 off,
			const struct bpf_insn *patch, u32 len)
{
	struct bpf_exc_tab *tab = env->prog->aux->exc_tab;
	const struct bpf_insn *orig = &env->prog->insnsi[off];
	int pos;
	u32 i;

	if (!tab)
		return 0;
	pos = desc_pos(tab, off);
	if (pos == tab->cnt || tab->desc[pos]->pc != off)
		return 0;
	for (i = 0; i < len; i++)
		if (!memcmp(&patch[i], orig, sizeof(*orig)))
			return i;
	verbose(env, "verifier internal error: insn %d: a rewrite after verification replaced this call, which bpf_throw unwinds through: cannot release what its frame holds\n",
		env->insn_aux_data[off].orig_idx);
	return -EFAULT;
}

/* The insn at @off became @len insns, the original one at @off + @pos */
void bpf_exc_patch_insns(const struct bpf_prog *prog, u32 off, u32 len, u32 pos)
{
	struct bpf_exc_tab *tab = prog->aux->exc_tab;
	u32 i;

	if (!tab || len == 1)
		return;
	for (i = desc_pos(tab, off); i < tab->cnt; i++) {
		struct bpf_exc_frame_desc *desc = tab->desc[i];

		desc->pc += desc->pc > off ? len - 1 : pos;
	}
}

/* Dead code was removed: no throw point is in it */
void bpf_exc_remove_insns(struct bpf_verifier_env *env, u32 off, u32 cnt)
{
	struct bpf_exc_tab *tab = env->prog->aux->exc_tab;
	u32 i;

	if (!tab)
		return;
	for (i = desc_pos(tab, off); i < tab->cnt; i++) {
		WARN_ON_ONCE(tab->desc[i]->pc < off + cnt);
		tab->desc[i]->pc -= cnt;
	}
}

void bpf_exc_tab_free(struct bpf_exc_tab *tab)
{
	u32 i;

	if (!tab)
		return;
	for (i = 0; i < tab->cnt; i++)
		kfree(tab->desc[i]);
	kfree(tab->desc);
	kvfree(tab->scratch);
	kfree(tab);
}

/* Keep only the locations holding resources */
static void compact_desc(struct bpf_exc_tab *tab, u32 i, bool *any)
{
	struct bpf_exc_frame_desc *desc = tab->desc[i];
	u32 j, n = 0;

	for (j = 0; j < desc->cnt; j++)
		if (is_resource(&desc->loc[j]))
			desc->loc[n++] = desc->loc[j];
	*any |= n;
	tab->desc[i] = shrink_desc(tab, desc, n);
}

/* Every stack slot a descriptor names lies in the frame the JIT builds.
 * The fastcall contract keeps the spills a throw names (see
 * mark_throw_state_used()); were a later rewrite to shrink a frame under
 * a descriptor, bpf_throw would release whatever lies below it. Refuse
 * the load instead.
 */
static int check_desc_slots(struct bpf_verifier_env *env,
			    const struct bpf_exc_tab *tab)
{
	int s = 0, depth;
	u32 i, j;

	for (i = 0; i < tab->cnt; i++) {
		const struct bpf_exc_frame_desc *desc = tab->desc[i];

		while (s + 1 < env->subprog_cnt &&
		       env->subprog_info[s + 1].start <= desc->pc)
			s++;
		depth = round_up(env->subprog_info[s].stack_depth, BPF_REG_SIZE);
		for (j = 0; j < desc->cnt; j++) {
			const struct bpf_exc_loc *loc = &desc->loc[j];

			if (loc->regno || loc->off >= -depth)
				continue;
			verbose(env, "verifier internal error: bpf_throw at insn %u: fp%d lies outside the %d byte frame\n",
				desc->pc, loc->off, depth);
			return -EFAULT;
		}
	}
	return 0;
}

/**
 * bpf_exc_prepare_jit() - keep what the unwinder needs of the descriptors
 * @env: the verifier, done with patching the program
 *
 * Return: 0 or a negative error.
 */
int bpf_exc_prepare_jit(struct bpf_verifier_env *env)
{
	struct bpf_prog_aux *aux = env->prog->aux;
	struct bpf_exc_tab *tab = aux->exc_tab;
	bool any = false;
	u32 i;
	int err;

	if (!tab)
		return 0;
	kvfree(tab->scratch);
	tab->scratch = NULL;
	for (i = 0; i < tab->cnt; i++)
		compact_desc(tab, i, &any);
	if (!any) {
		bpf_exc_tab_free(tab);
		aux->exc_tab = NULL;
		return 0;
	}
	err = check_desc_slots(env, tab);
	if (err)
		return err;
	/* The descriptors know insn indexes, not those of a blinded copy.
	 * Ask what the JIT will do: blinding_requested was decided when the
	 * prog was allocated, before a BPF token could lift it.
	 */
	if (env->prog->blinding_requested) {
		verbose(env, "resources held at bpf_throw cannot be released with constant blinding (net.core.bpf_jit_harden)\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * bpf_exc_attach_descs() - give a subprog's image its descriptors
 * @env: the verifier
 * @func: the prog about to be jited for @subprog
 * @subprog: its index
 *
 * The descriptors of @subprog are those whose pc lies in it; their pc
 * becomes relative to its start here, and an offset in its image when the
 * JIT is done (bpf_prog_fill_jited_exc_descs()).
 */
void bpf_exc_attach_descs(struct bpf_verifier_env *env, struct bpf_prog *func,
			  int subprog)
{
	struct bpf_exc_tab *tab = env->prog->aux->exc_tab;
	u32 start = env->subprog_info[subprog].start;
	u32 end = env->subprog_info[subprog + 1].start;
	u32 first, i;

	if (!tab)
		return;
	first = desc_pos(tab, start);
	for (i = first; i < tab->cnt && tab->desc[i]->pc < end; i++)
		tab->desc[i]->pc -= start;
	func->aux->exc_descs = tab->desc + first;
	func->aux->exc_desc_cnt = i - first;
	if (!subprog) {
		env->prog->aux->exc_descs = func->aux->exc_descs;
		env->prog->aux->exc_desc_cnt = func->aux->exc_desc_cnt;
	}
}

/**
 * bpf_prog_fill_jited_exc_descs() - map descriptor pcs into the image
 * @prog: a (sub)prog, jited for the last time
 * @insn_to_jit_off: offset in the image of the end of each insn
 * @entry_off: offset in the image of prog->bpf_func, past a CFI preamble
 *
 * A frame's pc at run time is the return address of its call, the end of
 * the call insn. Descriptors keep it relative to prog->bpf_func, which is
 * what bpf_exc_unwind_frame() subtracts from it.
 */
void bpf_prog_fill_jited_exc_descs(struct bpf_prog *prog,
				   const u32 *insn_to_jit_off, u32 entry_off)
{
	u32 i;

	for (i = 0; i < prog->aux->exc_desc_cnt; i++) {
		struct bpf_exc_frame_desc *desc = prog->aux->exc_descs[i];

		desc->pc = insn_to_jit_off[desc->pc] - entry_off;
	}
}

static int cmp_desc_pc(const void *key, const void *elt)
{
	u32 pc = *(const u32 *)key;
	u32 desc_pc = (*(struct bpf_exc_frame_desc * const *)elt)->pc;

	return pc < desc_pc ? -1 : pc > desc_pc;
}

static void release_frame(const struct bpf_exc_frame_desc *desc,
			  const struct bpf_exc_unwind *u, u64 bp)
{
	u32 i;

	for (i = 0; i < desc->cnt; i++) {
		const struct bpf_exc_loc *loc = &desc->loc[i];
		void *obj;

		if (loc->regno) {
			int r = loc->regno - BPF_REG_6;

			/* the JIT saved it further down the chain */
			if (WARN_ON_ONCE(!(u->regs_valid & BIT(r))))
				continue;
			obj = (void *)(unsigned long)u->regs[r];
		} else if (loc->what == BPF_EXC_RES_OBJ) {
			obj = (void *)(unsigned long)(bp + loc->off);
		} else {
			obj = *(void **)(unsigned long)(bp + loc->off);
		}
		/* NULL is NULL whatever the offset: kfuncs return NULL */
		if (obj)
			loc->release(obj - loc->obj_off, loc->arg);
	}
}

/**
 * bpf_exc_unwind_frame() - release what a BPF frame holds at a throw
 * @prog: the (sub)prog of the frame
 * @u: R6-R9 of the frame, as saved by the frames it called
 * @ip: the frame's return address
 * @bp: its frame pointer
 *
 * Called by bpf_throw for each BPF frame, innermost first, while the
 * frames are still intact. The innermost is the bpf_throw trampoline,
 * which saves R6-R9 of the throwing frame; each frame then passes on the
 * values of its caller's registers that its own prologue saved.
 */
void bpf_exc_unwind_frame(struct bpf_prog *prog, struct bpf_exc_unwind *u,
			  u64 ip, u64 bp)
{
	struct bpf_prog_aux *aux = prog->aux;
	int i;

	if (aux->exc_desc_cnt) {
		u32 pc = ip - (unsigned long)prog->bpf_func;
		struct bpf_exc_frame_desc **desc;

		desc = bsearch(&pc, aux->exc_descs, aux->exc_desc_cnt,
			       sizeof(*desc), cmp_desc_pc);
		if (!WARN_ON_ONCE(!desc))
			release_frame(*desc, u, bp);
	}
	if (!bpf_is_subprog(prog))
		return;
	for (i = 0; i < ARRAY_SIZE(aux->exc_saved_reg_off); i++) {
		if (!aux->exc_saved_reg_off[i])
			continue;
		u->regs[i] = *(u64 *)(unsigned long)(bp + aux->exc_saved_reg_off[i]);
		u->regs_valid |= BIT(i);
	}
}

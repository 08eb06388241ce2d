// SPDX-License-Identifier: GPL-2.0
/* Runtime cases for the release of resources by bpf_throw.
 *
 * Every case program throws VAL while it holds resources, so that the
 * default exception callback makes it return VAL. The proof that the
 * resources came back is taken from outside the program:
 *
 * - ring buffer records: rb is 4096 bytes, and rb_probe reserves the whole
 *   of it (PROBE_SIZE plus the 8 byte header, the most a reservation may
 *   take). After a case ran, user space consumes rb: discarded records are
 *   skipped and the consumer position advances, but a record still reserved
 *   stops it. rb_probe then succeeds only if every record of the case was
 *   released.
 * - the fentry observers count the calls of the kernel functions that
 *   release each kind of resource, made by the test's process while
 *   'observe' is set, so user space asserts that each resource was
 *   released exactly once (and that nothing already released was released
 *   again).
 * - for objects, iterators and BTF pointers, counts alone would pass
 *   "object A released twice, object B leaked". So observers also record
 *   the pointer each acquire function returned (fexit, or fentry for an
 *   iterator's address) and the pointer each release function received,
 *   and user space compares the two sets. For percpu objects, bit 0 of
 *   the pointer records the percpu flag __bpf_obj_drop_impl was given.
 *
 * The cases whose point is where a value lives (R6-R9, stack slots, which
 * frame) are written in inline assembly, so they do not depend on the
 * compiler's register allocation.
 */
#include <vmlinux.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "bpf_misc.h"
#include "bpf_experimental.h"
#include "exceptions_cleanup.h"

/* Thrown when an allocation fails, which is no test result */
#define ALLOC_FAILED 1
#define RB_SIZE 4096
/* Record plus its 8 byte header span RB_SIZE - 8, the most that fits */
#define PROBE_SIZE (RB_SIZE - 16)

struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
void bpf_task_release(struct task_struct *p) __ksym;
struct cgroup *bpf_cgroup_from_id(u64 cgid) __ksym;
void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
int bpf_dynptr_clone(const struct bpf_dynptr *ptr, struct bpf_dynptr *clone__uninit) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RB_SIZE);
} rb SEC(".maps");

struct obj {
	long v;
};

/* A node of a list and of a tree, with a refcount */
struct node_data {
	long key;
	struct bpf_list_node l;
	struct bpf_rb_node r;
	struct bpf_refcount ref;
};

/* An object whose fields own other objects */
struct obj_fields {
	struct obj __kptr *inner;
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, l);
	struct bpf_rb_root root __contains(node_data, r);
};

/* A global lock and the roots it guards, in a map value of their own */
SEC(".bss.EXC") __hidden __attribute__((aligned(8)))
struct bpf_spin_lock glock;
SEC(".bss.EXC") __hidden __attribute__((aligned(8)))
struct bpf_list_head ghead __contains(node_data, l);
SEC(".bss.EXC") __hidden __attribute__((aligned(8)))
struct bpf_rb_root groot __contains(node_data, r);

/* Local and percpu kptrs */
struct kptr_val {
	struct obj __kptr *local;
	struct obj __percpu_kptr *percpu;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct kptr_val);
	__uint(max_entries, 1);
} kptrs SEC(".maps");

/* Set by user space */
int pid;
bool observe;
u64 cgid;

/* Calls of the release functions seen while 'observe' is set */
int discard_cnt;
int discard_dynptr_cnt;
int obj_drop_cnt;
int iter_destroy_cnt;
int task_dtor_cnt;
int cgroup_dtor_cnt;
int cpumask_dtor_cnt;

static bool observed(void)
{
	return observe && (bpf_get_current_pid_tgid() >> 32) == pid;
}

/* Each observer counts the calls of one release function, made by the
 * program or by bpf_throw, in the test's process while 'observe' is set.
 */
#define OBSERVER(func, cnt)					\
SEC("?fentry/" #func)						\
int BPF_PROG(obs_##func)					\
{								\
	if (observed())						\
		__sync_fetch_and_add(&cnt, 1);			\
	return 0;						\
}

/* Observer: ring buffer records released */
OBSERVER(bpf_ringbuf_discard, discard_cnt)
/* Observer: ring buffer dynptrs released */
OBSERVER(bpf_ringbuf_discard_dynptr, discard_dynptr_cnt)
/* Observer: bpf_obj_new and bpf_percpu_obj_new objects released */
OBSERVER(__bpf_obj_drop_impl, obj_drop_cnt)
/* Observer: bpf_iter_num iterators destroyed */
OBSERVER(bpf_iter_num_destroy, iter_destroy_cnt)
/* Observer: task references dropped through the registered destructor */
OBSERVER(bpf_task_release_dtor, task_dtor_cnt)
/* Observer: cgroup references dropped through the registered destructor */
OBSERVER(bpf_cgroup_release_dtor, cgroup_dtor_cnt)
/* Observer: cpumasks dropped through the registered destructor */
OBSERVER(bpf_cpumask_release_dtor, cpumask_dtor_cnt)

/* Pointers handed out and taken back while 'observe' is set, by kind */
struct exc_ptrs acq[EXC_KINDS];
struct exc_ptrs rel[EXC_KINDS];

static __always_inline void note(struct exc_ptrs *s, u64 ptr)
{
	unsigned int i;

	if (!observed())
		return;
	/* test_progs-no_alu32 is built for cpu v2, which has no fetching
	 * atomics; observed() keeps to the test's thread, so a plain
	 * increment does there
	 */
#if __BPF_CPU_VERSION__ >= 3
	i = __sync_fetch_and_add(&s->n, 1);
#else
	i = s->n++;
#endif
	if (i < EXC_MAX_PTRS)
		s->p[i] = ptr;
}

/* Acquired: what the acquire function returned, unless NULL */
#define ACQ_OBSERVER(func, kind, bit, ...)			\
SEC("?fexit/" #func)						\
int BPF_PROG(acq_##func, __VA_ARGS__, void *ret)		\
{								\
	if (ret)						\
		note(&acq[kind], (u64)ret | (bit));		\
	return 0;						\
}

/* Released: the pointer the release function received */
#define REL_OBSERVER(func, kind)				\
SEC("?fentry/" #func)						\
int BPF_PROG(rel_##func, void *p)				\
{								\
	note(&rel[kind], (u64)p);				\
	return 0;						\
}

ACQ_OBSERVER(bpf_obj_new_impl, EXC_OBJ, 0, u64 id, void *meta)
ACQ_OBSERVER(bpf_percpu_obj_new_impl, EXC_OBJ, 1, u64 id, void *meta)
/* A second owning reference to the same object: acquired again */
ACQ_OBSERVER(bpf_refcount_acquire_impl, EXC_OBJ, 0, void *kptr, void *meta)
ACQ_OBSERVER(bpf_task_from_pid, EXC_TASK, 0, s32 pid)
ACQ_OBSERVER(bpf_cgroup_from_id, EXC_CGROUP, 0, u64 id)
REL_OBSERVER(bpf_iter_num_destroy, EXC_ITER)
REL_OBSERVER(bpf_task_release, EXC_TASK)
REL_OBSERVER(bpf_task_release_dtor, EXC_TASK)
REL_OBSERVER(bpf_cgroup_release, EXC_CGROUP)
REL_OBSERVER(bpf_cgroup_release_dtor, EXC_CGROUP)
/* (bpf_cpumask_release_dtor() calls bpf_cpumask_release(): one observer) */
REL_OBSERVER(bpf_cpumask_release, EXC_CPUMASK)

/* Released objects: the pointer and the percpu flag in bit 0 */
SEC("?fentry/__bpf_obj_drop_impl")
int BPF_PROG(rel_obj_drop, void *p, const struct btf_record *rec, bool percpu)
{
	note(&rel[EXC_OBJ], (u64)p | (percpu ? 1 : 0));
	return 0;
}

/* bpf_cpumask_create() takes no argument: ctx[0] is its return value */
SEC("?fexit/bpf_cpumask_create")
int BPF_PROG(acq_bpf_cpumask_create, void *ret)
{
	if (ret)
		note(&acq[EXC_CPUMASK], (u64)ret);
	return 0;
}

/* An iterator is acquired at its address, whatever its range */
SEC("?fentry/bpf_iter_num_new")
int BPF_PROG(acq_iter_num_new, struct bpf_iter_num *it, int start, int end)
{
	note(&acq[EXC_ITER], (u64)it);
	return 0;
}

/* Not a case: returns 1 when the whole of rb can be reserved, which is
 * only possible when no record of an earlier run is still reserved.
 */
SEC("?tc")
int rb_probe(struct __sk_buff *ctx)
{
	void *p;

	p = bpf_ringbuf_reserve(&rb, PROBE_SIZE, 0);
	if (!p)
		return 0;
	bpf_ringbuf_discard(p, 0);
	return 1;
}

/* ---- The RFC's cases ---- */

/* An iterator of an open-coded loop is destroyed by the throw from its body */
SEC("?tc")
int num_iter(struct __sk_buff *ctx)
{
	int i;

	bpf_for(i, 0, 10) {
		if (i == 5)
			bpf_throw(VAL);
	}
	return 0;
}

/* Each of three nested loops' iterators is destroyed once */
SEC("?tc")
int num_iter_mult(struct __sk_buff *ctx)
{
	int i, j, k;

	bpf_for(i, 0, 10) {
		bpf_for(j, 0, 10) {
			bpf_for(k, 0, 10) {
				bpf_throw(VAL);
			}
		}
	}
	return 0;
}

static __noinline int iter_throw_subprog(struct __sk_buff *ctx)
{
	int i;

	bpf_for(i, 0, 10) {
		bpf_throw(VAL);
	}
	return ctx->len;
}

/* A ring buffer dynptr of the caller and an iterator of the callee that
 * throws are both released.
 */
SEC("?tc")
int dynptr_iter(struct __sk_buff *ctx)
{
	struct bpf_dynptr rbuf;
	int ret = 0;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &rbuf);
	if (ctx->protocol)
		ret = iter_throw_subprog(ctx);
	bpf_ringbuf_discard_dynptr(&rbuf, 0);
	return ret;
}

/* A bpf_obj_new object, not checked for NULL, is dropped */
SEC("?tc")
int obj_unchecked(struct __sk_buff *ctx)
{
	struct obj *p;

	p = bpf_obj_new(typeof(*p));
	bpf_throw(VAL);
	return p->v;
}

/* A bpf_percpu_obj_new object, not checked for NULL, is dropped */
SEC("?tc")
int percpu_obj_unchecked(struct __sk_buff *ctx)
{
	struct obj *p;

	p = bpf_percpu_obj_new(typeof(*p));
	bpf_throw(VAL);
	return !p;
}

/* A ring buffer record, not checked for NULL, is discarded */
SEC("?tc")
int ringbuf_unchecked(struct __sk_buff *ctx)
{
	void *p;

	p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	return !p;
}

/* A record used after the throw (so kept by the compiler across the call)
 * is discarded.
 */
SEC("?tc")
int ringbuf_kept(struct __sk_buff *ctx)
{
	void *p;

	p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	if (p)
		bpf_ringbuf_discard(p, 0);
	return 0;
}

/* The same slot holding NULL at run time: nothing is released */
SEC("?tc")
int null_or_ptr_do_null(struct __sk_buff *ctx)
{
	union {
		void *p;
		char buf[8];
	} volatile p;

	p.p = 0;
	if (!ctx->len)
		p.p = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_throw(VAL);
	return 0;
}

/* Four records, not checked for NULL, in R6-R9 are all discarded */
SEC("?tc")
__naked int callee_saved(void)
{
	asm volatile (RB_RESERVE_8
	"r6 = r0;"
	RB_RESERVE_8
	"r7 = r0;"
	RB_RESERVE_8
	"r8 = r0;"
	RB_RESERVE_8
	"r9 = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_ringbuf_reserve), __imm(bpf_throw), __imm_addr(rb),
	  __imm_const(val, VAL)
	: __clobber_all);
}

__noinline int global_subprog_throw(struct __sk_buff *ctx)
{
	u64 *p = bpf_ringbuf_reserve(&rb, 8, 0);

	bpf_throw(VAL);
	return p ? *p : 0 + ctx->len;
}

__noinline int global_subprog(struct __sk_buff *ctx)
{
	u64 *p = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!p)
		return ctx->len;
	global_subprog_throw(ctx);
	bpf_ringbuf_discard(p, 0);
	return !!p + ctx->len;
}

static __noinline int static_subprog(struct __sk_buff *ctx)
{
	struct bpf_dynptr rbuf;
	u64 *p, r = 0;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &rbuf);
	p = bpf_dynptr_data(&rbuf, 0, 8);
	if (!p)
		goto end;
	*p = global_subprog(ctx);
	r += *p;
end:
	bpf_ringbuf_discard_dynptr(&rbuf, 0);
	return r + ctx->len;
}

/* Resources in four frames (an object, a dynptr, a record in a global
 * subprog and one in the global subprog it calls, which throws) are all
 * released.
 */
SEC("?tc")
int frame_mix(struct __sk_buff *ctx)
{
	struct obj *p = bpf_obj_new(typeof(*p));
	int i;

	if (!p)
		return ALLOC_FAILED;
	p->v = static_subprog(ctx);
	i = p->v;
	bpf_obj_drop(p);
	return i + ctx->len;
}

/* Fifty objects in fifty stack slots, thrown from the last iteration of a
 * bounded loop, are each dropped once.
 */
SEC("?tc")
int loop_iterations(struct __sk_buff *ctx)
{
	struct obj *f[50] = {};
	int i;

	for (i = 0; i < 50; i++) {
		f[i] = bpf_obj_new(typeof(*f[0]));
		if (!f[i])
			goto end;
		if (i == 49)
			bpf_throw(VAL);
	}
end:
	for (i = 0; i < 50; i++) {
		if (!f[i])
			continue;
		bpf_obj_drop(f[i]);
	}
	return ALLOC_FAILED;
}

/* ---- Objects that come from elsewhere than bpf_obj_new ---- */

/* A clone shares the original's reservation: one discard */
SEC("?tc")
int dynptr_clone_throw(struct __sk_buff *ctx)
{
	struct bpf_dynptr d, c;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &d);
	bpf_dynptr_clone(&d, &c);
	bpf_throw(VAL);
	bpf_ringbuf_discard_dynptr(&d, 0);
	return 0;
}

static bool node_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct node_data, r)->key <
	       container_of(b, struct node_data, r)->key;
}

/* Dropping the object frees what its fields own: the object in its kptr,
 * the node on its list and the node in its tree (four drops, four objects).
 */
SEC("?tc")
int obj_with_fields(struct __sk_buff *ctx)
{
	struct node_data *n, *m;
	struct obj_fields *o;
	struct obj *in;

	o = bpf_obj_new(typeof(*o));
	if (!o)
		return ALLOC_FAILED;
	in = bpf_obj_new(typeof(*in));
	n = bpf_obj_new(typeof(*n));
	m = bpf_obj_new(typeof(*m));
	if (!in || !n || !m)
		goto fail;
	in = bpf_kptr_xchg(&o->inner, in);
	if (in)
		bpf_obj_drop(in);	/* not reached: the field was empty */
	bpf_spin_lock(&o->lock);
	bpf_list_push_front(&o->head, &n->l);
	bpf_rbtree_add(&o->root, &m->r, node_less);
	bpf_spin_unlock(&o->lock);
	bpf_throw(VAL);
	bpf_obj_drop(o);
	return 0;
fail:
	if (in)
		bpf_obj_drop(in);
	if (n)
		bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(o);
	return ALLOC_FAILED;
}

/* Two owning references to one refcounted object: each is dropped, and
 * the second drop frees it.
 */
SEC("?tc")
int refcount_two_refs(struct __sk_buff *ctx)
{
	struct node_data *n, *m;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return ALLOC_FAILED;
	m = bpf_refcount_acquire(n);
	bpf_throw(VAL);
	bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	return 0;
}

/* A node taken off a list is owned again, and dropped */
SEC("?tc")
int list_pop_throw(struct __sk_buff *ctx)
{
	struct bpf_list_node *l;
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return ALLOC_FAILED;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->l);
	l = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (!l)
		return ALLOC_FAILED;
	n = container_of(l, struct node_data, l);
	bpf_throw(VAL);
	bpf_obj_drop(n);
	return 0;
}

/* A node removed from a tree is owned again, and dropped */
SEC("?tc")
int rbtree_remove_throw(struct __sk_buff *ctx)
{
	struct bpf_rb_node *r;
	struct node_data *n;

	n = bpf_obj_new(typeof(*n));
	if (!n)
		return ALLOC_FAILED;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->r, node_less);
	r = bpf_rbtree_first(&groot);
	if (r)
		r = bpf_rbtree_remove(&groot, r);
	bpf_spin_unlock(&glock);
	if (!r)
		return ALLOC_FAILED;
	n = container_of(r, struct node_data, r);
	bpf_throw(VAL);
	bpf_obj_drop(n);
	return 0;
}

/* Only a pointer past the end of the object (or before its start) is
 * held: the verifier knows how far, and the throw drops the object itself,
 * which the observers check by its address.
 */
#define OBJ_AT_OFFSET(name, delta)					\
SEC("?tc")								\
int name(struct __sk_buff *ctx)						\
{									\
	struct obj *p = bpf_obj_new(typeof(*p));			\
									\
	if (!p)								\
		return ALLOC_FAILED;					\
	asm volatile ("%[p] += %[d];" : [p]"+r"(p) : [d]"i"(delta));	\
	bpf_throw(VAL);							\
	asm volatile ("%[p] += %[d];" : [p]"+r"(p) : [d]"i"(-(delta)));\
	bpf_obj_drop(p);						\
	return 0;							\
}

OBJ_AT_OFFSET(obj_past_end, 64)
OBJ_AT_OFFSET(obj_before_start, -16)

/* A local and a percpu object taken out of map kptrs: both dropped, the
 * percpu one as percpu.
 */
SEC("?tc")
int kptr_xchg_throw(struct __sk_buff *ctx)
{
	struct kptr_val *v;
	struct obj *p, *q;
	int key = 0;

	v = bpf_map_lookup_elem(&kptrs, &key);
	if (!v)
		return ALLOC_FAILED;
	p = bpf_obj_new(typeof(*p));
	if (!p)
		return ALLOC_FAILED;
	p = bpf_kptr_xchg(&v->local, p);
	if (p)
		bpf_obj_drop(p);
	q = bpf_percpu_obj_new(typeof(*q));
	if (!q)
		return ALLOC_FAILED;
	q = bpf_kptr_xchg(&v->percpu, q);
	if (q)
		bpf_percpu_obj_drop(q);
	p = bpf_kptr_xchg(&v->local, NULL);
	q = bpf_kptr_xchg(&v->percpu, NULL);
	bpf_throw(VAL);
	if (p)
		bpf_obj_drop(p);
	if (q)
		bpf_percpu_obj_drop(q);
	return 0;
}

/* The throw's descriptor survives dead code elimination after it */
SEC("?tc")
int dead_code_elim(struct __sk_buff *ctx)
{
	void *p;

	p = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!p)
		return ALLOC_FAILED;
	asm volatile (
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		::: "r0");
	bpf_throw(VAL);
	bpf_ringbuf_discard(p, 0);
	return 0;
}

__noinline int global_subprog_throw_dce(struct __sk_buff *ctx)
{
	u64 *p = bpf_ringbuf_reserve(&rb, 8, 0);

	bpf_throw(VAL);
	return p ? *p : 0 + ctx->len;
}

__noinline int global_subprog_dce(struct __sk_buff *ctx)
{
	u64 *p = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!p)
		return ctx->len;
	asm volatile (
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		::: "r0");
	global_subprog_throw_dce(ctx);
	bpf_ringbuf_discard(p, 0);
	return !!p + ctx->len;
}

static __noinline int static_subprog_dce(struct __sk_buff *ctx)
{
	struct bpf_dynptr rbuf;
	u64 *p, r = 0;

	bpf_ringbuf_reserve_dynptr(&rb, 8, 0, &rbuf);
	p = bpf_dynptr_data(&rbuf, 0, 8);
	if (!p)
		goto end;
	asm volatile (
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		"r0 = r0;"
		::: "r0");
	*p = global_subprog_dce(ctx);
	r += *p;
end:
	bpf_ringbuf_discard_dynptr(&rbuf, 0);
	return r + ctx->len;
}

/* As frame_mix, with dead code removed in every frame before the throw */
SEC("?tc")
int frame_mix_dce(struct __sk_buff *ctx)
{
	struct obj *p = bpf_obj_new(typeof(*p));
	int i;

	if (!p)
		return ALLOC_FAILED;
	p->v = static_subprog_dce(ctx);
	i = p->v;
	bpf_obj_drop(p);
	return i + ctx->len;
}

/* ---- Where the resources live ---- */

/* Reserve an 8 byte record into r0; throw ALLOC_FAILED if that fails.
 * n makes the label unique within one asm statement.
 */
#define RESERVE_OR_FAIL(n)				\
	RB_RESERVE_8					\
	"if r0 != 0 goto l_rsv" #n "_%=;"		\
	"r1 = %[fail];"					\
	"call %[bpf_throw];"				\
"l_rsv" #n "_%=:"

#define RB_ASM_IMMS						\
	__imm(bpf_ringbuf_reserve), __imm(bpf_throw),		\
	__imm_addr(rb), __imm_const(val, VAL),			\
	__imm_const(fail, ALLOC_FAILED)

/* Frame 6: record in R6 and a copy in R7, then the throw. R6 and R7 being
 * used here, the JIT saves frame 4's R6 and frame 3's R7 in this frame.
 */
__naked __noinline __used
static void seven_f6(void)
{
	asm volatile (RESERVE_OR_FAIL(1)
	"r6 = r0;"
	"r7 = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Frame 5: record in R9 and a copy in fp-8 */
__naked __noinline __used
static void seven_f5(void)
{
	asm volatile (RESERVE_OR_FAIL(2)
	"r9 = r0;"
	"*(u64 *)(r10 - 8) = r0;"
	"call seven_f6;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Frame 4: record in fp-8; R6 overwritten with a scalar, so that frame 2's
 * R6 is saved in this frame.
 */
__naked __noinline __used
static void seven_f4(void)
{
	asm volatile (RESERVE_OR_FAIL(3)
	"*(u64 *)(r10 - 8) = r0;"
	"r6 = 0;"
	"call seven_f5;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Frame 3: record in R7, scalar 7 in fp-8 */
__naked __noinline __used
static void seven_f3(void)
{
	asm volatile (RESERVE_OR_FAIL(4)
	"r7 = r0;"
	"r1 = 7;"
	"*(u64 *)(r10 - 8) = r1;"
	"call seven_f4;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Frame 2: record in R6, so main's R6 is saved in this frame */
__naked __noinline __used
static void seven_f2(void)
{
	asm volatile (RESERVE_OR_FAIL(5)
	"r6 = r0;"
	"call seven_f3;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Frame 1: record in fp-16 (fp-8 left unused), R6-R9 untouched */
__naked __noinline __used
static void seven_f1(void)
{
	asm volatile (RESERVE_OR_FAIL(6)
	"*(u64 *)(r10 - 16) = r0;"
	"call seven_f2;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Seven frames (main and six static subprogs) each hold one record, in a
 * stack slot or in a callee-saved register that deeper frames save and
 * reuse; the throw from the deepest frame discards all seven, once each.
 */
SEC("?tc")
__naked int seven_frames(void)
{
	asm volatile (RESERVE_OR_FAIL(7)
	"r6 = r0;"
	"call seven_f1;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* One record held in R6, R7 and fp-8 at the throw is discarded once */
SEC("?tc")
__naked int one_rec_three_copies(void)
{
	asm volatile (RESERVE_OR_FAIL(8)
	"r6 = r0;"
	"r7 = r0;"
	"*(u64 *)(r10 - 8) = r0;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* One object held in R6, R7 and fp-8 at the throw is dropped once (on
 * the hardened kernel KASAN would also report a double free; on the small
 * one only the drop count shows it).
 */
SEC("?tc")
int one_obj_three_copies(struct __sk_buff *ctx)
{
	struct obj *p;

	p = bpf_obj_new(typeof(*p));
	if (!p)
		return ALLOC_FAILED;
	asm volatile ("r6 = %[p];"
	"r7 = %[p];"
	"*(u64 *)(r10 - 8) = %[p];"
	"r1 = %[val];"
	"call %[bpf_throw];"
	:
	: [p]"r"(p), __imm(bpf_throw), __imm_const(val, VAL)
	: "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "memory");
	bpf_obj_drop(p);
	return 0;
}

/* Frame 1 of rec_two_frames: the caller's record, passed in R1, kept in
 * R7 and fp-8 here, while the caller's R6 still holds it too
 */
__naked __noinline __used
static void two_frames_sub(void)
{
	asm volatile ("r7 = r1;"
	"*(u64 *)(r10 - 8) = r1;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw), __imm_const(val, VAL)
	: __clobber_all);
}

/* One record reachable from two frames (main's R6, frame 1's R7 and
 * fp-8) is discarded once
 */
SEC("?tc")
__naked int rec_two_frames(void)
{
	asm volatile (RESERVE_OR_FAIL(13)
	"r6 = r0;"
	"r1 = r0;"
	"call two_frames_sub;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* A custom exception callback: it gets the cookie and returns cookie + 1
 * (test_run's retval), after the held record and object were released.
 */
__noinline int cb_plus_one(u64 cookie)
{
	return cookie + 1;
}

SEC("?tc")
__exception_cb(cb_plus_one)
int custom_cb_with_resources(struct __sk_buff *ctx)
{
	struct obj *o = bpf_obj_new(typeof(*o));
	long *r;

	if (!o)
		return ALLOC_FAILED;
	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r) {
		bpf_obj_drop(o);
		return ALLOC_FAILED;
	}
	bpf_throw(VAL);
	bpf_ringbuf_discard(r, 0);
	bpf_obj_drop(o);
	return 0;
}

/* Uses R6, so the JIT saves the caller's R6 in this frame's prologue */
__naked __noinline __used
static void spill2_sub2(void)
{
	asm volatile ("r6 = 42;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = r6;"
	"exit;"
	:
	: __imm(bpf_throw), __imm_const(val, VAL)
	: __clobber_all);
}

/* Leaves R6 alone: main's record is still in the hardware register here */
__naked __noinline __used
static void spill2_sub1(void)
{
	asm volatile ("r7 = 1;"
	"call spill2_sub2;"
	"r0 += r7;"
	"exit;"
	::: __clobber_all);
}

/* The record lives only in main's R6; the frame below does not touch R6
 * and the one below that saves it before reusing R6 and throwing. The
 * unwinder must find it two frames down.
 */
SEC("?tc")
__naked int caller_reg_spilled_deep(void)
{
	asm volatile (RESERVE_OR_FAIL(9)
	"r6 = r0;"
	"call spill2_sub1;"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS
	: __clobber_all);
}

/* Three locations hold NULL (R6, a spilled zero register at fp-8, a zero
 * stored as an immediate at fp-16) when ctx->mark is 0, and records when
 * it is not: both paths reach the same throw, and the run with each mark
 * discards three records or none.
 */
SEC("?tc")
__naked int null_or_records(void)
{
	asm volatile ("r6 = 0;"
	"*(u64 *)(r10 - 8) = r6;"
	"*(u64 *)(r10 - 16) = 0;"
	"r7 = *(u32 *)(r1 + %[mark]);"
	"if r7 == 0 goto l_throw_%=;"
	RESERVE_OR_FAIL(10)
	"r6 = r0;"
	RESERVE_OR_FAIL(11)
	"*(u64 *)(r10 - 8) = r0;"
	RESERVE_OR_FAIL(12)
	"*(u64 *)(r10 - 16) = r0;"
"l_throw_%=: r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS, __imm_const(mark, offsetof(struct __sk_buff, mark))
	: __clobber_all);
}

/* NULL or an object in the same stack slot, chosen by ctx->mark */
SEC("?tc")
int null_or_obj(struct __sk_buff *ctx)
{
	struct obj * volatile p = NULL;

	if (ctx->mark) {
		p = bpf_obj_new(struct obj);
		if (!p)
			bpf_throw(ALLOC_FAILED);
	}
	bpf_throw(VAL);
	return 0;
}

/* A record held outside two nested loops; the throw comes from the inner
 * body in the outer loop's third iteration. The inner iterators of the
 * first two iterations were destroyed by the program, the two live ones
 * by the throw: four destroys and one discard in all.
 */
SEC("?tc")
int iter_nested_with_record(struct __sk_buff *ctx)
{
	long *r;
	int i, j;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return ALLOC_FAILED;
	bpf_for(i, 0, 4) {
		bpf_for(j, 0, 4) {
			if (i == 2 && j == 3)
				bpf_throw(VAL);
		}
	}
	bpf_ringbuf_discard(r, 0);
	return 0;
}

/* Records released by the program before the throw, whose stale values
 * are still in R6, R7 and fp-8, are not released again.
 */
SEC("?tc")
__naked int released_rec_before_throw(void)
{
	asm volatile (RESERVE_OR_FAIL(13)
	"r6 = r0;"
	"*(u64 *)(r10 - 8) = r0;"
	RESERVE_OR_FAIL(14)
	"r7 = r0;"
	"r1 = r6;"
	"r2 = 0;"
	"call %[bpf_ringbuf_discard];"
	"r1 = r7;"
	"r2 = 0;"
	"call %[bpf_ringbuf_discard];"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: RB_ASM_IMMS, __imm(bpf_ringbuf_discard)
	: __clobber_all);
}

/* An object dropped and a loop finished before the throw are not released
 * again: one drop and one destroy, both by the program.
 */
SEC("?tc")
int released_obj_iter_before_throw(struct __sk_buff *ctx)
{
	struct obj *p;
	int i, sum = 0;

	p = bpf_obj_new(typeof(*p));
	if (!p)
		return ALLOC_FAILED;
	bpf_obj_drop(p);
	bpf_for(i, 0, 3)
		sum += i;
	bpf_throw(VAL);
	return sum + (long)p;
}

/* Throws whenever the packet is not empty */
__noinline int global_throws(struct __sk_buff *ctx)
{
	if (ctx->len)
		bpf_throw(VAL);
	return 0;
}

/* A record and an object held by the caller of a throwing global subprog
 * are released.
 */
SEC("?tc")
int global_throw_caller_holds(struct __sk_buff *ctx)
{
	struct obj *o;
	long *r;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return ALLOC_FAILED;
	o = bpf_obj_new(typeof(*o));
	if (!o) {
		bpf_ringbuf_discard(r, 0);
		return ALLOC_FAILED;
	}
	o->v = global_throws(ctx);
	*r = o->v;
	bpf_ringbuf_discard(r, 0);
	bpf_obj_drop(o);
	return 0;
}

/* Calls the throwing global subprog from an iterator loop */
static __noinline int static_loop_global(struct __sk_buff *ctx)
{
	int i, ret = 0;

	bpf_for(i, 0, 3)
		ret += global_throws(ctx);
	return ret;
}

/* The caller's record (fp-8) and the static subprog's iterator are
 * released when the global subprog called in the loop throws.
 */
SEC("?tc")
int global_throw_in_loop(struct __sk_buff *ctx)
{
	long * volatile r;
	long ret;

	r = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!r)
		return ALLOC_FAILED;
	ret = static_loop_global(ctx);
	bpf_ringbuf_discard(r, 0);
	return ret;
}

/* A task reference is dropped through bpf_task_release_dtor */
SEC("?tc")
int task_ref(struct __sk_buff *ctx)
{
	struct task_struct *t;

	t = bpf_task_from_pid(pid);
	if (!t)
		return ALLOC_FAILED;
	bpf_throw(VAL);
	bpf_task_release(t);
	return 0;
}

/* A cgroup reference is dropped through bpf_cgroup_release_dtor */
SEC("?tc")
int cgroup_ref(struct __sk_buff *ctx)
{
	struct cgroup *cg;

	cg = bpf_cgroup_from_id(cgid);
	if (!cg)
		return ALLOC_FAILED;
	bpf_throw(VAL);
	bpf_cgroup_release(cg);
	return 0;
}

/* A cpumask is dropped through bpf_cpumask_release_dtor (cpumask kfuncs
 * are not available to tc programs, so this one is a syscall program).
 */
SEC("?syscall")
int cpumask_ref(void *ctx)
{
	struct bpf_cpumask *m;

	m = bpf_cpumask_create();
	if (!m)
		return ALLOC_FAILED;
	bpf_throw(VAL);
	bpf_cpumask_release(m);
	return 0;
}

char _license[] SEC("license") = "GPL";

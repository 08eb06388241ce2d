// SPDX-License-Identifier: GPL-2.0
/* bpf_throw from every kind of program, and for every kind of kernel object
 * a program can hold when it throws, a pair of programs: one that takes the
 * object and throws, and a probe that reads, through the object's own
 * counter, whether the object came back. prog_tests/exceptions_cleanup_kinds.c
 * runs the probe before and after the throw and, where a counter is not
 * enough, also checks the object is freed (sockets, cgroups) or that memory
 * stays flat over 100000 throws (bpf_obj_new, percpu objects, bit iterators).
 *
 * Every *_throw program throws VAL while holding its object; nothing after
 * the throw runs, which the 'after_throw' counter checks.
 */
#include <vmlinux.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpf_misc.h"
#include "bpf_experimental.h"
#include <errno.h>
#include "exceptions_cleanup.h"

/* not in vmlinux.h; bpf_tracing_net.h has it, but also field macros such
 * as sk_refcnt that clash with the program names here
 */
#define AF_INET 2

/* Thrown when taking the object failed, which is no test result */
#define TAKE_FAILED 1
#define RB_SIZE 4096
#define PROBE_SIZE (RB_SIZE - 16)

struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
void bpf_task_release(struct task_struct *p) __ksym;
struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;
struct cgroup *bpf_cgroup_from_id(u64 cgid) __ksym;
struct cgroup *bpf_cgroup_acquire(struct cgroup *cgrp) __ksym;
struct cgroup *bpf_cgroup_ancestor(struct cgroup *cgrp, int level) __ksym;
void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
struct bpf_cpumask *bpf_cpumask_acquire(struct bpf_cpumask *cpumask) __ksym;
void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
void bpf_rcu_read_lock(void) __ksym;
void bpf_rcu_read_unlock(void) __ksym;
struct nf_conn___init *bpf_xdp_ct_alloc(struct xdp_md *ctx, struct bpf_sock_tuple *tuple,
					u32 tuple__sz, struct bpf_ct_opts *opts,
					u32 opts__sz) __ksym;
struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *ctx, struct bpf_sock_tuple *tuple,
				  u32 tuple__sz, struct bpf_ct_opts *opts,
				  u32 opts__sz) __ksym;
struct nf_conn___init *bpf_skb_ct_alloc(struct __sk_buff *ctx, struct bpf_sock_tuple *tuple,
					u32 tuple__sz, struct bpf_ct_opts *opts,
					u32 opts__sz) __ksym;
struct nf_conn *bpf_skb_ct_lookup(struct __sk_buff *ctx, struct bpf_sock_tuple *tuple,
				  u32 tuple__sz, struct bpf_ct_opts *opts,
				  u32 opts__sz) __ksym;
struct nf_conn *bpf_ct_insert_entry(struct nf_conn___init *nfct_i) __ksym;
void bpf_ct_set_timeout(struct nf_conn___init *nfct, u32 timeout) __ksym;
void bpf_ct_release(struct nf_conn *nfct) __ksym;
struct xfrm_state *bpf_xdp_get_xfrm_state(struct xdp_md *ctx,
					  struct bpf_xfrm_state_opts *opts,
					  u32 opts__sz) __ksym;
void bpf_xdp_xfrm_state_release(struct xfrm_state *x) __ksym;
struct bpf_key *bpf_lookup_user_key(u32 serial, u64 flags) __ksym;
void bpf_key_put(struct bpf_key *bkey) __ksym;
struct hid_bpf_ctx *hid_bpf_allocate_context(unsigned int hid_id) __ksym;
void hid_bpf_release_context(struct hid_bpf_ctx *ctx) __ksym;
struct bpf_crypto_ctx *bpf_crypto_ctx_create(const struct bpf_crypto_params *params,
					     u32 params__sz, int *err) __ksym;
struct bpf_crypto_ctx *bpf_crypto_ctx_acquire(struct bpf_crypto_ctx *ctx) __ksym;
void bpf_crypto_ctx_release(struct bpf_crypto_ctx *ctx) __ksym;
struct file *bpf_get_task_exe_file(struct task_struct *task) __ksym;
void bpf_put_file(struct file *file) __ksym;
const struct cpumask *scx_bpf_get_possible_cpumask(void) __ksym;
void scx_bpf_put_cpumask(const struct cpumask *cpumask) __ksym;
s32 scx_bpf_create_dsq(u64 dsq_id, s32 node) __ksym;
void scx_bpf_destroy_dsq(u64 dsq_id) __ksym;
int bpf_iter_scx_dsq_new(struct bpf_iter_scx_dsq *it, u64 dsq_id, u64 flags) __ksym;
struct task_struct *bpf_iter_scx_dsq_next(struct bpf_iter_scx_dsq *it) __ksym;
void bpf_iter_scx_dsq_destroy(struct bpf_iter_scx_dsq *it) __ksym;
int bpf_iter_bits_new(struct bpf_iter_bits *it, const u64 *unsafe_ptr__ign,
		      u32 nr_words) __ksym;
int *bpf_iter_bits_next(struct bpf_iter_bits *it) __ksym;
void bpf_iter_bits_destroy(struct bpf_iter_bits *it) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RB_SIZE);
} rb SEC(".maps");

/* Kernel objects kept across runs, whose counters the probes read */
struct kept {
	struct bpf_cpumask __kptr * mask;
	struct bpf_crypto_ctx __kptr * crypto;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct kept);
} kept SEC(".maps");

/* Set by user space: what to take */
int pid;		/* a task, sleeping in pause() */
u64 cgid;		/* a cgroup id */
u32 key_serial;		/* a user key */
u32 hid_id;		/* a HID device */
struct bpf_sock_tuple tuple;	/* a socket, or a conntrack entry */
struct bpf_sock_tuple utuple;	/* a bound UDP socket */

/* Read by user space */
int after_throw;	/* code after a throw ran: must stay 0 */
int entered;		/* a *_throw program ran up to its throw */
long count;		/* what a probe read */
int sk_freed;		/* destructor calls for the accepted socket */
u64 udp_addr;		/* the UDP socket, as udp_lookup found it */
int udp_released;	/* bpf_sk_release_on_throw() calls for it */
u64 sk_addr;		/* the accepted socket, as sk_refcnt found it */
int err;		/* an error a probe or setup ran into */
int lsm_mode;		/* what file_open does for 'pid': 1 probe, 2 throw */
bool observe;		/* count the calls the observers see, from 'pid' */
int put_cpumask_cnt;	/* scx_cpumask_cleanup() calls */
int dsq_destroy_cnt;	/* bpf_iter_scx_dsq_destroy() calls */
int task_iter_destroy_cnt;	/* bpf_iter_task_cleanup() calls */
int css_iter_destroy_cnt;	/* bpf_iter_css_cleanup() calls */

/* ---- bpf_throw from each kind of program, holding a ring buffer record ---- */

static __always_inline int throw_holding_record(u64 cookie)
{
	long *r = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!r) {
		err = -ENOMEM;
		return 0;
	}
	entered++;
	bpf_throw(cookie);
	after_throw++;
	bpf_ringbuf_discard(r, 0);
	return 0;
}

SEC("?tc")
int tc_throw(struct __sk_buff *ctx)
{
	return throw_holding_record(VAL);
}

SEC("?xdp")
int xdp_throw(struct xdp_md *ctx)
{
	return throw_holding_record(VAL);
}

SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(fentry_throw, int a)
{
	/* the cookie is the return value, which must be 0 for fentry */
	return throw_holding_record(0);
}

SEC("?syscall")
int syscall_throw(void *ctx)
{
	return throw_holding_record(VAL);
}

/* A kprobe throws from the kprobe handler's context; bpf_fentry_test2 is
 * called by the test run of trigger_fentry.
 */
SEC("?kprobe/bpf_fentry_test2")
int kprobe_throw(struct pt_regs *ctx)
{
	if ((bpf_get_current_pid_tgid() >> 32) != pid)
		return 0;
	return throw_holding_record(VAL);
}

SEC("?fentry/bpf_fentry_test3")
int BPF_PROG(trigger_fentry, char a, int b, u64 c)
{
	return 0;
}

/* Before this series, a socket filter could not call bpf_throw at all */
SEC("?socket")
int socket_throw(struct __sk_buff *ctx)
{
	return throw_holding_record(VAL);
}

/* Returns 1 if the whole ring buffer can be reserved: no record is left */
SEC("?tc")
int rb_probe(struct __sk_buff *ctx)
{
	void *r = bpf_ringbuf_reserve(&rb, PROBE_SIZE, 0);

	if (!r)
		return 0;
	bpf_ringbuf_discard(r, 0);
	return 1;
}

/* ---- Memory: bpf_obj_new, bpf_percpu_obj_new, bits iterator ---- */

/* Big enough that 100000 of them leaked are megabytes of slab */
struct big {
	long v[12];
};

struct pcpu {
	long v[4];
};

SEC("?tc")
int obj_throw(struct __sk_buff *ctx)
{
	struct big *o = bpf_obj_new(typeof(*o));

	if (!o)
		return 0;
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_obj_drop(o);
	return 0;
}

SEC("?tc")
int percpu_obj_throw(struct __sk_buff *ctx)
{
	struct pcpu *o = bpf_percpu_obj_new(typeof(*o));

	if (!o)
		return 0;
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_percpu_obj_drop(o);
	return 0;
}

/* More than one word: bpf_iter_bits_new() allocates a copy of them */
u64 bits[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

SEC("?tc")
int bits_iter_throw(struct __sk_buff *ctx)
{
	struct bpf_iter_bits it;

	/* on failure, it holds nothing to release, but must still be destroyed */
	if (bpf_iter_bits_new(&it, bits, 8)) {
		bpf_iter_bits_destroy(&it);
		return 0;
	}
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_iter_bits_destroy(&it);
	return 0;
}

/* ---- Tasks: the task's reference counts ---- */

/* What bpf_task_acquire() and bpf_task_from_pid() take */
SEC("?syscall")
int task_rcu_users(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid);

	if (!t) {
		err = -ESRCH;
		return 0;
	}
	/* less our own reference */
	count = t->rcu_users.refs.counter - 1;
	bpf_task_release(t);
	return 0;
}

/* What get_task_struct() takes, as the task_vma and css_task iterators do */
SEC("?syscall")
int task_usage(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid);

	if (!t) {
		err = -ESRCH;
		return 0;
	}
	count = t->usage.refs.counter;
	bpf_task_release(t);
	return 0;
}

/* The task's mm: the vma iterator holds a reference to it too */
SEC("?syscall")
int mm_users(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid);
	struct mm_struct *mm;

	if (!t) {
		err = -ESRCH;
		return 0;
	}
	mm = t->mm;
	count = mm ? mm->mm_users.counter : -1;
	bpf_task_release(t);
	return 0;
}

SEC("?syscall")
int task_throw(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid);

	if (!t)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_task_release(t);
	return 0;
}

/* A second reference, from bpf_task_acquire(): the first is dropped */
SEC("?syscall")
int task_acquire_throw(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid), *a;

	if (!t)
		bpf_throw(TAKE_FAILED);
	a = bpf_task_acquire(t);
	bpf_task_release(t);
	if (!a)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_task_release(a);
	return 0;
}

/* Holds only the iterator: it has its own references to the task and mm */
SEC("?syscall")
int task_vma_iter_throw(void *ctx)
{
	struct task_struct *t = bpf_task_from_pid(pid);
	struct bpf_iter_task_vma it;

	if (!t)
		bpf_throw(TAKE_FAILED);
	bpf_iter_task_vma_new(&it, t, 0);
	bpf_task_release(t);
	if (!bpf_iter_task_vma_next(&it)) {
		bpf_iter_task_vma_destroy(&it);
		bpf_throw(TAKE_FAILED);
	}
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_iter_task_vma_destroy(&it);
	return 0;
}

/* The css task iterator holds the task it last returned */
SEC("?syscall")
int css_task_iter_throw(void *ctx)
{
	struct cgroup *cgrp = bpf_cgroup_from_id(cgid);
	struct bpf_iter_css_task it;
	struct task_struct *t;

	if (!cgrp)
		bpf_throw(TAKE_FAILED);
	bpf_iter_css_task_new(&it, &cgrp->self, CSS_TASK_ITER_PROCS);
	bpf_cgroup_release(cgrp);
	t = bpf_iter_css_task_next(&it);
	if (!t || t->tgid != pid) {
		bpf_iter_css_task_destroy(&it);
		bpf_throw(TAKE_FAILED);
	}
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_iter_css_task_destroy(&it);
	return 0;
}

/* ---- Cgroups: freed after rmdir only if no reference is left ---- */

SEC("?syscall")
int cgroup_throw(void *ctx)
{
	struct cgroup *cgrp = bpf_cgroup_from_id(cgid);

	if (!cgrp)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_cgroup_release(cgrp);
	return 0;
}

/* A reference from bpf_cgroup_acquire(); the first is dropped */
SEC("?syscall")
int cgroup_acquire_throw(void *ctx)
{
	struct cgroup *cgrp = bpf_cgroup_from_id(cgid), *a;

	if (!cgrp)
		bpf_throw(TAKE_FAILED);
	a = bpf_cgroup_acquire(cgrp);
	bpf_cgroup_release(cgrp);
	if (!a)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_cgroup_release(a);
	return 0;
}

/* A reference from bpf_cgroup_ancestor(), at the cgroup's own level: the
 * cgroup itself
 */
SEC("?syscall")
int cgroup_ancestor_throw(void *ctx)
{
	struct cgroup *cgrp = bpf_cgroup_from_id(cgid), *a;

	if (!cgrp)
		bpf_throw(TAKE_FAILED);
	a = bpf_cgroup_ancestor(cgrp, cgrp->level);
	bpf_cgroup_release(cgrp);
	if (!a)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_cgroup_release(a);
	return 0;
}

/* ---- bpf_cpumask: its usage count ---- */

SEC("?syscall")
int cpumask_setup(void *ctx)
{
	struct bpf_cpumask *m = bpf_cpumask_create();
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});

	if (!m)
		return 0;
	if (!k) {
		bpf_cpumask_release(m);
		return 0;
	}
	m = bpf_kptr_xchg(&k->mask, m);
	if (m)
		bpf_cpumask_release(m);
	return 0;
}

SEC("?syscall")
int cpumask_usage(void *ctx)
{
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});
	struct bpf_cpumask *m;

	if (!k)
		return 0;
	bpf_rcu_read_lock();
	m = k->mask;
	count = m ? m->usage.refs.counter : -1;
	bpf_rcu_read_unlock();
	return 0;
}

/* Takes a second reference to the kept mask, puts the kept one back, and
 * throws holding the second.
 */
SEC("?syscall")
int cpumask_throw(void *ctx)
{
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});
	struct bpf_cpumask *m, *old;

	if (!k)
		bpf_throw(TAKE_FAILED);
	old = bpf_kptr_xchg(&k->mask, NULL);
	if (!old)
		bpf_throw(TAKE_FAILED);
	m = bpf_cpumask_acquire(old);
	old = bpf_kptr_xchg(&k->mask, old);
	if (old)
		bpf_cpumask_release(old);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_cpumask_release(m);
	return 0;
}

/* ---- bpf_crypto_ctx: its usage count ---- */

SEC("?syscall")
int crypto_setup(void *ctx)
{
	struct bpf_crypto_params params = {
		.type = "skcipher",
		.algo = "ecb(aes)",
		.key_len = 16,
	};
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});
	struct bpf_crypto_ctx *c;
	int cerr = 0;

	if (!k)
		return 0;
	c = bpf_crypto_ctx_create(&params, sizeof(params), &cerr);
	if (!c) {
		err = cerr ?: -ENOMEM;
		return 0;
	}
	c = bpf_kptr_xchg(&k->crypto, c);
	if (c)
		bpf_crypto_ctx_release(c);
	return 0;
}

SEC("?syscall")
int crypto_usage(void *ctx)
{
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});
	struct bpf_crypto_ctx *c;

	if (!k)
		return 0;
	bpf_rcu_read_lock();
	c = k->crypto;
	count = c ? c->usage.refs.counter : -1;
	bpf_rcu_read_unlock();
	return 0;
}

SEC("?syscall")
int crypto_throw(void *ctx)
{
	struct kept *k = bpf_map_lookup_elem(&kept, &(int){0});
	struct bpf_crypto_ctx *c = NULL;

	if (!k)
		bpf_throw(TAKE_FAILED);
	bpf_rcu_read_lock();
	if (k->crypto)
		c = bpf_crypto_ctx_acquire(k->crypto);
	bpf_rcu_read_unlock();
	if (!c)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_crypto_ctx_release(c);
	return 0;
}

/* ---- Sockets: the socket's refcount, and its final sk_free() ---- */

static __always_inline struct bpf_sock *lookup_sk(struct __sk_buff *ctx)
{
	return bpf_sk_lookup_tcp(ctx, &tuple, sizeof(tuple.ipv4),
				 BPF_F_CURRENT_NETNS, 0);
}

SEC("?tc")
int sk_refcnt(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_sk(ctx);
	struct tcp_sock *tp;

	if (!sk) {
		err = -ENOENT;
		return 0;
	}
	/* for obs_sk_destruct: by then the socket's ports are 0 */
	sk_addr = (u64)sk;
	tp = bpf_skc_to_tcp_sock(sk);
	/* less our own reference */
	count = tp ? tp->inet_conn.icsk_inet.sk.__sk_common.skc_refcnt.refs.counter - 1 : -1;
	bpf_sk_release(sk);
	return 0;
}

SEC("?tc")
int sk_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_sk(ctx);

	if (!sk)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_sk_release(sk);
	return 0;
}

SEC("?tc")
int skc_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk;

	sk = bpf_skc_lookup_tcp(ctx, &tuple, sizeof(tuple.ipv4), BPF_F_CURRENT_NETNS, 0);
	if (!sk)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_sk_release(sk);
	return 0;
}

/* User space puts the accepted socket at key 0 */
struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} socks SEC(".maps");

SEC("?tc")
int sockmap_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&socks, &(int){0});

	if (!sk)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_sk_release(sk);
	return 0;
}

/* User space puts the accepted socket at key 0 of this one too */
struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} sockh SEC(".maps");

SEC("?tc")
int sockhash_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = bpf_map_lookup_elem(&sockh, &(int){0});

	if (!sk)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_sk_release(sk);
	return 0;
}

/* A BTF cast (bpf_skc_to_tcp_sock(), a struct tcp_sock) beside the socket:
 * the socket is released, once, and not the cast
 */
SEC("?tc")
int sk_btf_cast_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_sk(ctx);
	struct tcp_sock *tp;

	if (!sk)
		bpf_throw(TAKE_FAILED);
	tp = bpf_skc_to_tcp_sock(sk);
	if (!tp) {
		bpf_sk_release(sk);
		bpf_throw(TAKE_FAILED);
	}
	entered++;
	bpf_throw(VAL);
	after_throw++;
	/* both are used after the throw: the frame holds both */
	count = tp->snd_cwnd;
	bpf_sk_release(sk);
	return 0;
}

/* UDP sockets are SOCK_RCU_FREE: bpf_sk_release() takes no reference
 * back, so there is no count to watch. What is watched is that the throw
 * hands this very socket to the release, once.
 */
static __always_inline struct bpf_sock *lookup_udp(struct __sk_buff *ctx)
{
	return bpf_sk_lookup_udp(ctx, &utuple, sizeof(utuple.ipv4),
				 BPF_F_CURRENT_NETNS, 0);
}

SEC("?tc")
int udp_lookup(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_udp(ctx);

	if (!sk) {
		err = -ENOENT;
		return 0;
	}
	udp_addr = (u64)sk;
	count = 0;
	bpf_sk_release(sk);
	return 0;
}

SEC("?tc")
int udp_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_udp(ctx);

	if (!sk)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_sk_release(sk);
	return 0;
}

SEC("?fentry/bpf_sk_release_on_throw")
int BPF_PROG(obs_udp_release, struct sock *sk)
{
	if (udp_addr && (u64)sk == udp_addr)
		udp_released++;
	return 0;
}

/* A cast of the socket is held beside the socket: bpf_throw releases the
 * socket the lookup returned, not the cast sharing its reference.
 */
SEC("?tc")
int sk_cast_throw(struct __sk_buff *ctx)
{
	struct bpf_sock *sk = lookup_sk(ctx);
	struct bpf_tcp_sock *tp;

	if (!sk)
		bpf_throw(TAKE_FAILED);
	tp = bpf_tcp_sock(sk);
	if (!tp) {
		bpf_sk_release(sk);
		bpf_throw(TAKE_FAILED);
	}
	entered++;
	bpf_throw(VAL);
	after_throw++;
	/* both are used after the throw: the frame holds both */
	count = tp->snd_cwnd;
	bpf_sk_release(sk);
	return 0;
}

/* The cast comes first, in R6, the socket in R7: the cast, what
 * bpf_skc_to_tcp_request_sock() returns for an established socket, is
 * NULL. Were the first location holding the reference released, the
 * socket would leak.
 */
SEC("?tc")
__naked int sk_cast_first_throw(void)
{
	asm volatile ("r2 = %[tuple] ll;"
	"r3 = %[tuple_sz];"
	"r4 = -1;"		/* BPF_F_CURRENT_NETNS */
	"r5 = 0;"
	"call %[bpf_sk_lookup_tcp];"
	"if r0 != 0 goto l0_%=;"
	"r1 = %[take_failed];"
	"call %[bpf_throw];"
"l0_%=: r7 = r0;"
	"r1 = r0;"
	"call %[bpf_skc_to_tcp_request_sock];"
	"r6 = r0;"
	"r1 = %[entered] ll;"
	"r2 = 1;"
	"lock *(u32 *)(r1 + 0) += r2;"
	"r1 = %[val];"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_skc_to_tcp_request_sock),
	  __imm(bpf_throw), __imm_addr(tuple), __imm_addr(entered),
	  __imm_const(tuple_sz, sizeof(tuple.ipv4)),
	  __imm_const(take_failed, TAKE_FAILED), __imm_const(val, VAL)
	: __clobber_all);
}

/* The destructor of inet sockets: runs once, when the socket is freed */
SEC("?fentry/inet_sock_destruct")
int BPF_PROG(obs_sk_destruct, struct sock *sk)
{
	if (sk_addr && (u64)sk == sk_addr)
		sk_freed++;
	return 0;
}

/* ---- nf_conn: the conntrack count, and an entry's use count ---- */

static __always_inline struct bpf_ct_opts ct_opts(void)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = IPPROTO_TCP };

	return opts;
}

SEC("?xdp")
int ct_alloc_throw(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn___init *ct;

	ct = bpf_xdp_ct_alloc(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	ct = (void *)bpf_ct_insert_entry(ct);
	if (ct)
		bpf_ct_release((void *)ct);
	return 0;
}

/* Insert an entry for 'tuple', for ct_use and ct_lookup_throw */
SEC("?xdp")
int ct_insert(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn___init *ct;
	struct nf_conn *ins;

	ct = bpf_xdp_ct_alloc(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct) {
		err = opts.error;
		return 0;
	}
	bpf_ct_set_timeout(ct, 60000);
	ins = bpf_ct_insert_entry(ct);
	if (!ins) {
		err = -EEXIST;
		return 0;
	}
	bpf_ct_release(ins);
	return 0;
}

SEC("?xdp")
int ct_use(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn *ct;

	ct = bpf_xdp_ct_lookup(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct) {
		err = opts.error;
		return 0;
	}
	/* less our own reference */
	count = ct->ct_general.use.refs.counter - 1;
	bpf_ct_release(ct);
	return 0;
}

SEC("?xdp")
int ct_lookup_throw(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn *ct;

	ct = bpf_xdp_ct_lookup(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_ct_release(ct);
	return 0;
}

/* The skb variants, from tc */
SEC("?tc")
int ct_skb_alloc_throw(struct __sk_buff *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn___init *ct;

	ct = bpf_skb_ct_alloc(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	ct = (void *)bpf_ct_insert_entry(ct);
	if (ct)
		bpf_ct_release((void *)ct);
	return 0;
}

SEC("?tc")
int ct_skb_lookup_throw(struct __sk_buff *ctx)
{
	struct bpf_ct_opts opts = ct_opts();
	struct nf_conn *ct;

	ct = bpf_skb_ct_lookup(ctx, &tuple, sizeof(tuple.ipv4), &opts, sizeof(opts));
	if (!ct)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_ct_release(ct);
	return 0;
}

/* ---- xfrm_state: its refcount ---- */

/* The SA that user space adds: dst 10.0.0.2, ESP, spi 0x100 */
static __always_inline struct bpf_xfrm_state_opts xfrm_opts(void)
{
	struct bpf_xfrm_state_opts opts = {
		.netns_id = -1,
		.daddr.a4 = bpf_htonl(0x0a000002),
		.spi = bpf_htonl(0x100),
		.proto = IPPROTO_ESP,
		.family = AF_INET,
	};

	return opts;
}

SEC("?xdp")
int xfrm_refcnt(struct xdp_md *ctx)
{
	struct bpf_xfrm_state_opts opts = xfrm_opts();
	struct xfrm_state *x;

	x = bpf_xdp_get_xfrm_state(ctx, &opts, sizeof(opts));
	if (!x) {
		err = opts.error ?: -ENOENT;
		return 0;
	}
	/* less our own reference */
	count = x->refcnt.refs.counter - 1;
	bpf_xdp_xfrm_state_release(x);
	return 0;
}

SEC("?xdp")
int xfrm_throw(struct xdp_md *ctx)
{
	struct bpf_xfrm_state_opts opts = xfrm_opts();
	struct xfrm_state *x;

	x = bpf_xdp_get_xfrm_state(ctx, &opts, sizeof(opts));
	if (!x)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	bpf_xdp_xfrm_state_release(x);
	return 0;
}

/* ---- bpf_key: the key's usage, as /proc/keys shows it ---- */

SEC("?fentry.s/bpf_fentry_test1")
int BPF_PROG(key_throw, int a)
{
	struct bpf_key *k;

	if ((bpf_get_current_pid_tgid() >> 32) != pid)
		return 0;
	k = bpf_lookup_user_key(key_serial, 0);
	if (!k) {
		err = -ENOENT;
		return 0;
	}
	entered++;
	/* fentry programs return 0, so the cookie is 0 too */
	bpf_throw(0);
	after_throw++;
	bpf_key_put(k);
	return 0;
}

/* ---- hid_bpf_ctx: the HID device's reference count ---- */

SEC("?syscall")
int hid_refcnt(void *ctx)
{
	struct hid_bpf_ctx *hctx = hid_bpf_allocate_context(hid_id);

	if (!hctx) {
		err = -ENODEV;
		return 0;
	}
	/* less our own reference */
	count = hctx->hid->dev.kobj.kref.refcount.refs.counter - 1;
	hid_bpf_release_context(hctx);
	return 0;
}

SEC("?syscall")
int hid_throw(void *ctx)
{
	struct hid_bpf_ctx *hctx = hid_bpf_allocate_context(hid_id);

	if (!hctx)
		bpf_throw(TAKE_FAILED);
	entered++;
	bpf_throw(VAL);
	after_throw++;
	hid_bpf_release_context(hctx);
	return 0;
}

/* ---- struct file (bpf_get_task_exe_file): the file's count ---- */

static __always_inline bool from_pid(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == pid;
}

SEC("?lsm/file_open")
int BPF_PROG(exe_file_count, struct file *f)
{
	struct file *exe;

	if (!from_pid() || lsm_mode != 1)
		return 0;
	exe = bpf_get_task_exe_file(bpf_get_current_task_btf());
	if (!exe) {
		err = -ENOENT;
		return 0;
	}
	/* less our own reference */
	count = exe->f_count.counter - 1;
	bpf_put_file(exe);
	return 0;
}

SEC("?lsm/file_open")
int BPF_PROG(exe_file_throw, struct file *f)
{
	struct file *exe;

	if (!from_pid() || lsm_mode != 2)
		return 0;
	lsm_mode = 0;
	exe = bpf_get_task_exe_file(bpf_get_current_task_btf());
	if (!exe) {
		err = -ENOENT;
		return 0;
	}
	entered++;
	/* 0: the hook lets the open go on */
	bpf_throw(0);
	after_throw++;
	bpf_put_file(exe);
	return 0;
}

/* ---- sched_ext: cpumasks and DSQ iterators ---- */

/* The put does nothing: the observer shows that bpf_throw calls it */
SEC("?syscall")
int scx_cpumask_throw(void *ctx)
{
	const struct cpumask *m = scx_bpf_get_possible_cpumask();

	entered++;
	bpf_throw(VAL);
	after_throw++;
	scx_bpf_put_cpumask(m);
	return 0;
}

#define DSQ_ID 0x6eb9f

SEC("?syscall")
int dsq_create(void *ctx)
{
	err = scx_bpf_create_dsq(DSQ_ID, -1);
	return 0;
}

SEC("?syscall")
int dsq_destroy(void *ctx)
{
	scx_bpf_destroy_dsq(DSQ_ID);
	return 0;
}

/* KF_RCU_PROTECTED: a non-sleepable program is in an RCU section */
SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(dsq_iter_throw, int a)
{
	struct bpf_iter_scx_dsq it;

	if (!from_pid())
		return 0;
	if (bpf_iter_scx_dsq_new(&it, DSQ_ID, 0)) {
		err = -ENOENT;
		bpf_iter_scx_dsq_destroy(&it);
		return 0;
	}
	entered++;
	bpf_throw(0);
	after_throw++;
	bpf_iter_scx_dsq_destroy(&it);
	return 0;
}

/* ---- Task and css iterators: RCU protected, their destroy does nothing ---- */

SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(task_iter_throw, int a)
{
	struct bpf_iter_task it;

	if (!from_pid())
		return 0;
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_PROCS);
	entered++;
	bpf_throw(0);
	after_throw++;
	bpf_iter_task_destroy(&it);
	return 0;
}

SEC("?fentry/bpf_fentry_test1")
int BPF_PROG(css_iter_throw, int a)
{
	struct cgroup *root;
	struct bpf_iter_css it;

	if (!from_pid())
		return 0;
	root = bpf_cgroup_from_id(1);
	if (!root) {
		err = -ENOENT;
		return 0;
	}
	bpf_iter_css_new(&it, &root->self, BPF_CGROUP_ITER_DESCENDANTS_PRE);
	bpf_cgroup_release(root);
	entered++;
	bpf_throw(0);
	after_throw++;
	bpf_iter_css_destroy(&it);
	return 0;
}

/* The observers of the empty destructors trace the cleanup wrappers that
 * bpf_throw calls (see btf_find_cleanup_dtor()): the compiler drops the
 * wrapper's call to an empty kfunc, so tracing the kfunc sees nothing.
 */
SEC("?fentry/bpf_iter_task_cleanup")
int BPF_PROG(obs_task_iter_destroy)
{
	if (observe && from_pid())
		task_iter_destroy_cnt++;
	return 0;
}

SEC("?fentry/bpf_iter_css_cleanup")
int BPF_PROG(obs_css_iter_destroy)
{
	if (observe && from_pid())
		css_iter_destroy_cnt++;
	return 0;
}

SEC("?fentry/scx_cpumask_cleanup")
int BPF_PROG(obs_put_cpumask)
{
	if (observe && from_pid())
		put_cpumask_cnt++;
	return 0;
}

SEC("?fentry/bpf_iter_scx_dsq_destroy")
int BPF_PROG(obs_dsq_destroy)
{
	if (observe && from_pid())
		dsq_destroy_cnt++;
	return 0;
}

/* ---- Floods: each release gets an object that was taken and is live ---- */

/* The objects taken and not yet released, by address */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, u64);
	__type(value, u64);
} live SEC(".maps");

/* Counted while 'observe' is set, from 'pid' only */
u64 acquired;		/* objects taken */
u64 released;		/* releases of a live object */
u64 stray;		/* releases of an object not live: never taken, or twice */
u64 untracked;		/* objects taken that 'live' had no room for */
u64 wrong_flavour;	/* a percpu object dropped as a plain one, or back */
bool flood_percpu;	/* the flood takes percpu objects */

static __always_inline void witness_acquire(u64 p)
{
	u64 one = 1;

	if (!p || !observe || !from_pid())
		return;
	if (bpf_map_update_elem(&live, &p, &one, BPF_NOEXIST))
		untracked++;
	else
		acquired++;
}

static __always_inline void witness_release(u64 p)
{
	if (!observe || !from_pid())
		return;
	if (bpf_map_delete_elem(&live, &p))
		stray++;
	else
		released++;
}

SEC("?fexit/bpf_obj_new_impl")
int BPF_PROG(obs_obj_new, u64 size, void *meta, void *ret)
{
	witness_acquire((u64)ret);
	return 0;
}

SEC("?fexit/bpf_percpu_obj_new_impl")
int BPF_PROG(obs_percpu_obj_new, u64 size, void *meta, void *ret)
{
	witness_acquire((u64)ret);
	return 0;
}

/* Both bpf_obj_drop() and the release path of a throw end here */
SEC("?fentry/__bpf_obj_drop_impl")
int BPF_PROG(obs_obj_drop, void *p, const struct btf_record *rec, bool percpu)
{
	if (observe && from_pid() && percpu != flood_percpu)
		wrong_flavour++;
	witness_release((u64)p);
	return 0;
}

/* With more than 64 bits, the iterator's first word is the address of
 * the copy bpf_iter_bits_new() allocated
 */
SEC("?fexit/bpf_iter_bits_new")
int BPF_PROG(obs_bits_new, struct bpf_iter_bits *it, const u64 *p, u32 nr_words, int ret)
{
	if (!ret && nr_words > 1)
		witness_acquire(it->__opaque[0]);
	return 0;
}

SEC("?fentry/bpf_iter_bits_destroy")
int BPF_PROG(obs_bits_destroy, struct bpf_iter_bits *it)
{
	/* the second word's low half is nr_bits: 64 or less, nothing to free */
	if ((int)it->__opaque[1] > 64)
		witness_release(it->__opaque[0]);
	return 0;
}

char _license[] SEC("license") = "GPL";

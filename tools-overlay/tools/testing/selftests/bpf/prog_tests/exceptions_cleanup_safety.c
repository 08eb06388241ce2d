// SPDX-License-Identifier: GPL-2.0
/* Throws through the passes that rewrite a program after verification
 * (progs/exceptions_cleanup_safety.c): each case holds a ring buffer
 * record when it throws, which must come back, discarded. A record that
 * was not released stays busy in the ring, and the consumer stops at it.
 */
#include <test_progs.h>
#include <network_helpers.h>
#include <cgroup_helpers.h>
#include <bpf/btf.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <time.h>

#include "exceptions_cleanup_safety.skel.h"
#include "exceptions_cleanup_st_ops.skel.h"
#include "exceptions_cleanup_ext.skel.h"

#define VAL 0xeB9F

static int count_sample(void *ctx, void *data, size_t size)
{
	(*(int *)ctx)++;
	return 0;
}

static long last_record;

/* Count a sample, and keep its value */
static int record_sample(void *ctx, void *data, size_t size)
{
	last_record = size >= sizeof(long) ? *(long *)data : -1;
	return count_sample(ctx, data, size);
}

static struct exceptions_cleanup_safety *open_prog(const char *name, __u32 flags)
{
	struct exceptions_cleanup_safety *skel;
	struct bpf_program *prog;

	skel = exceptions_cleanup_safety__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return NULL;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!ASSERT_OK_PTR(prog, name))
		goto err;
	bpf_program__set_autoload(prog, true);
	bpf_program__set_flags(prog, bpf_program__flags(prog) | flags);
	if (!ASSERT_OK(exceptions_cleanup_safety__load(skel), "load"))
		goto err;
	return skel;
err:
	exceptions_cleanup_safety__destroy(skel);
	return NULL;
}

/* How a program is made to run: by BPF_PROG_TEST_RUN, or attached and
 * fired from the kernel's own context (a tracepoint, a kprobe, a perf event
 * in interrupt context).
 */
enum fire {
	TEST_RUN, TRAMPOLINE, TRACEPOINT, KPROBE, KPROBE_INT3, PERF_EVENT, CGROUP_SOCK,
	LSM_OPEN,
};

/* A software perf event on this task's CPU clock every 100 us */
static int open_cpu_clock(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
	};

	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Attach @prog as @how says and make it run a few times */
static int fire(struct bpf_program *prog, enum fire how, struct bpf_link **link,
		int *pfd)
{
	struct timespec start, now;

	int fd;

	if (how == PERF_EVENT) {
		*pfd = open_cpu_clock();
		if (!ASSERT_GE(*pfd, 0, "perf_event_open"))
			return -1;
		*link = bpf_program__attach_perf_event(prog, *pfd);
	} else if (how == CGROUP_SOCK) {
		*pfd = cgroup_setup_and_join("/exc_cleanup_sock");
		if (!ASSERT_GE(*pfd, 0, "cgroup_setup_and_join"))
			return -1;
		*link = bpf_program__attach_cgroup(prog, *pfd);
	} else {
		*link = bpf_program__attach(prog);
	}
	if (!ASSERT_OK_PTR(*link, "attach"))
		return -1;
	switch (how) {
	case TRACEPOINT:
		usleep(10000);	/* sched_switch */
		break;
	case KPROBE:
		syscall(__NR_getpgid, 0);
		break;
	case CGROUP_SOCK:	/* the cookie 0 is the hook's verdict */
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		ASSERT_LT(fd, 0, "sock_create refused the socket");
		ASSERT_EQ(errno, EPERM, "with EPERM");
		if (fd >= 0)
			close(fd);
		break;
	case LSM_OPEN:		/* the cookie -1 is the hook's verdict */
		fd = open("/proc/self/stat", O_RDONLY);
		ASSERT_LT(fd, 0, "file_open refused the open");
		ASSERT_EQ(errno, EPERM, "with EPERM");
		if (fd >= 0)
			close(fd);
		break;
	case PERF_EVENT:	/* 50 ms on the CPU: the timer fires */
		clock_gettime(CLOCK_MONOTONIC, &start);
		do
			clock_gettime(CLOCK_MONOTONIC, &now);
		while ((now.tv_sec - start.tv_sec) * 1000000000L +
			 now.tv_nsec - start.tv_nsec < 50000000L);
		break;
	default:
		break;
	}
	return 0;
}

/* The ring ends with @submitted records submitted (counted in *@samples),
 * a record produced if @reserved (none otherwise), and none left busy.
 */
static void ring_released(struct ring_buffer *ringbuf, struct ring *ring, int *samples,
			  int submitted, bool reserved)
{
	ASSERT_GE(ring_buffer__consume(ringbuf), 0, "consume");
	ASSERT_EQ(*samples, submitted, "records submitted");
	if (reserved)
		ASSERT_GT(ring__producer_pos(ring), 0, "a record was reserved");
	else
		ASSERT_EQ(ring__producer_pos(ring), 0, "no record reserved");
	ASSERT_EQ(ring__avail_data_size(ring), 0, "record released (none busy)");
}

#define KPROBES_OPT "/proc/sys/debug/kprobes-optimization"
#define KPROBES_LIST "/sys/kernel/debug/kprobes/list"

/* Is the kprobe at @sym+@off in the list, and not on ftrace? */
static bool kprobe_is_int3(const char *sym, int off)
{
	char line[256], want[128];
	bool found = false;
	FILE *f;

	f = fopen(KPROBES_LIST, "r");
	if (!ASSERT_OK_PTR(f, KPROBES_LIST))
		return false;
	snprintf(want, sizeof(want), " %s+0x%x ", sym, off);
	while (fgets(line, sizeof(line), f)) {
		strcat(line, " ");
		if (strstr(line, want) && !strstr(line, "[FTRACE]") &&
		    !strstr(line, "[OPTIMIZED]"))
			found = true;
	}
	fclose(f);
	return found;
}

/* Attach @prog to getpgid at the first offset where the kprobe is an int3
 * (not on ftrace, not optimized into a jump) and fires; fire it.
 */
static int attach_int3(struct bpf_program *prog, struct ring *ring, struct bpf_link **link)
{
	const char *sym = "__x64_sys_getpgid";
	char old = '1';
	int off, fd;

	fd = open(KPROBES_OPT, O_RDWR);
	if (fd >= 0) {
		if (read(fd, &old, 1) != 1 || pwrite(fd, "0", 1, 0) != 1)
			old = 0;
	}
	if (!ASSERT_GE(fd, 0, KPROBES_OPT) || !ASSERT_NEQ(old, 0, "kprobes-optimization off"))
		goto err;
	for (off = 1; off < 64; off++) {
		LIBBPF_OPTS(bpf_kprobe_opts, opts, .offset = off);
		unsigned long pos = ring__producer_pos(ring);

		*link = bpf_program__attach_kprobe_opts(prog, sym, &opts);
		if (!*link)	/* not an insn boundary */
			continue;
		if (kprobe_is_int3(sym, off)) {
			syscall(__NR_getpgid, 0);
			if (ring__producer_pos(ring) != pos)
				break;	/* on the path getpgid takes */
		}
		bpf_link__destroy(*link);
		*link = NULL;
	}
	ASSERT_EQ(pwrite(fd, &old, 1, 0), 1, "kprobes-optimization restored");
	close(fd);
	return ASSERT_OK_PTR(*link, "an int3 kprobe in getpgid that fired") ? 0 : -1;
err:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Load @name with @flags and run it (@how); if it ran by test_run and
 * @retval >= 0 it must return @retval. Its ring buffer must end with a
 * record produced if @reserved (none otherwise), and with nothing left
 * busy or submitted. A fired program is detached before the ring is read,
 * so that no run is still in flight.
 */
static void run_prog(const char *name, __u32 flags, enum fire how,
		     struct bpf_test_run_opts *topts, int retval, bool reserved)
{
	struct exceptions_cleanup_safety *skel = open_prog(name, flags);
	struct ring_buffer *ringbuf = NULL;
	struct bpf_link *link = NULL;
	struct bpf_program *prog;
	struct ring *ring;
	int samples = 0, pfd = -1;

	if (!skel)
		return;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample, &samples, NULL);
	if (!ASSERT_OK_PTR(ringbuf, "ring_buffer__new"))
		goto out;
	ring = ring_buffer__ring(ringbuf, 0);
	if (!ASSERT_OK_PTR(ring, "ring"))
		goto out;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	skel->bss->target_pid = getpid();
	if (how == KPROBE_INT3) {
		if (attach_int3(prog, ring, &link))
			goto out;
	} else if (how != TEST_RUN && fire(prog, how, &link, &pfd)) {
		goto out;
	}
	if (topts) {
		if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(prog), topts), "run"))
			goto out;
		if (retval >= 0)
			ASSERT_EQ(topts->retval, retval, "retval is the thrown cookie");
	}
	bpf_link__destroy(link);
	link = NULL;
	ring_released(ringbuf, ring, &samples, 0, reserved);
	ASSERT_EQ(skel->bss->fell_through, 0, "every run threw");
out:
	bpf_link__destroy(link);
	/* also when the attach failed: fire() may have set it up */
	if (how == CGROUP_SOCK)
		cleanup_cgroup_environment();
	if (pfd >= 0)
		close(pfd);
	ring_buffer__free(ringbuf);
	exceptions_cleanup_safety__destroy(skel);
}

/* Run @name once on a packet with skb->mark @mark; it must throw VAL, and
 * the ring buffer must end with @reserved more bytes produced and nothing
 * left busy or submitted.
 */
static void run_case(const char *name, __u32 flags, __u32 mark, bool reserved)
{
	struct __sk_buff skb = { .mark = mark };

	LIBBPF_OPTS(bpf_test_run_opts, topts,
		    .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4),
		    .ctx_in = &skb,
		    .ctx_size_in = sizeof(skb),
	);

	run_prog(name, flags, TEST_RUN, &topts, VAL, reserved);
}

#define JIT_HARDEN "/proc/sys/net/core/bpf_jit_harden"

/* Set bpf_jit_harden to @val; its old value in *@old if @old */
static int set_jit_harden(char val, char *old)
{
	int fd = open(JIT_HARDEN, O_RDWR);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (old && read(fd, old, 1) != 1)
		err = -EIO;
	if (!err && pwrite(fd, &val, 1, 0) != 1)
		err = -EIO;
	close(fd);
	return err;
}

/* Load @name alone with its verifier log in @log */
static int load_logged(const char *name, char *log, size_t sz)
{
	struct exceptions_cleanup_safety *skel;
	struct bpf_program *prog;
	int err;

	skel = exceptions_cleanup_safety__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return -EINVAL;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	bpf_program__set_autoload(prog, true);
	bpf_program__set_log_buf(prog, log, sz);
	err = exceptions_cleanup_safety__load(skel);
	exceptions_cleanup_safety__destroy(skel);
	return err;
}

/* Constant blinding rewrites the program after the descriptors were
 * recorded, with other insn indexes: a program that holds something at a
 * throw is refused, one that holds nothing loads.
 */
static void test_blinding_refused(void)
{
	static char log[16384];
	char old = '0';
	int err;

	/* 2: blind every program, root's too */
	if (!ASSERT_OK(set_jit_harden('2', &old), "bpf_jit_harden=2"))
		return;
	log[0] = 0;
	err = load_logged("fastcall_slot", log, sizeof(log));
	ASSERT_EQ(err, -EOPNOTSUPP, "holding a record: refused");
	ASSERT_HAS_SUBSTR(log, "cannot be released with constant blinding",
			  "the log says why");
	err = load_logged("throw_holding_nothing", log, sizeof(log));
	ASSERT_OK(err, "holding nothing: loads");
	ASSERT_OK(set_jit_harden(old, NULL), "bpf_jit_harden restored");
}

/* What test_run of bpf_modify_return_test() returns with type_fmod_ret
 * attached and returning VAL without a throw; -1 on error. It must differ
 * from what it returns with nothing attached, or the check proves nothing.
 */
static int fmod_ret_reference(void)
{
	struct exceptions_cleanup_safety *skel = open_prog("type_fmod_ret", 0);
	struct bpf_link *link = NULL;
	int ret = -1, fd;

	LIBBPF_OPTS(bpf_test_run_opts, bare);
	LIBBPF_OPTS(bpf_test_run_opts, hooked);

	if (!skel)
		return -1;
	skel->data->throw_now = 0;
	fd = bpf_program__fd(skel->progs.type_fmod_ret);
	if (!ASSERT_OK(bpf_prog_test_run_opts(fd, &bare), "run, not attached"))
		goto out;
	link = bpf_program__attach(skel->progs.type_fmod_ret);
	if (!ASSERT_OK_PTR(link, "attach fmod_ret") ||
	    !ASSERT_OK(bpf_prog_test_run_opts(fd, &hooked), "run, returning VAL"))
		goto out;
	if (ASSERT_NEQ(hooked.retval, bare.retval, "fmod_ret's VAL changes the result"))
		ret = hooked.retval;
out:
	bpf_link__destroy(link);
	exceptions_cleanup_safety__destroy(skel);
	return ret;
}

/* A struct_ops program (bpf_dummy_ops, run by BPF_PROG_TEST_RUN through
 * its trampoline) throws holding an object: the cookie is its return
 * value, and the object the fexit observer saw bpf_obj_new_impl() return
 * is the one __bpf_obj_drop_impl() got, once. (bpf_dummy_ops has no
 * helpers, so no ring buffer.)
 */
static void test_struct_ops(void)
{
	struct exceptions_cleanup_st_ops *skel;
	__u64 args[1] = {};

	LIBBPF_OPTS(bpf_test_run_opts, topts, .ctx_in = args, .ctx_size_in = sizeof(args));

	skel = exceptions_cleanup_st_ops__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	/* only the observers: bpf_dummy_ops cannot be registered */
	skel->links.obs_new = bpf_program__attach(skel->progs.obs_new);
	skel->links.obs_drop = bpf_program__attach(skel->progs.obs_drop);
	if (!ASSERT_OK_PTR(skel->links.obs_new, "attach obs_new") ||
	    !ASSERT_OK_PTR(skel->links.obs_drop, "attach obs_drop"))
		goto out;
	skel->bss->pid = getpid();
	if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.st_ops_throw), &topts),
		       "run"))
		goto out;
	ASSERT_EQ(topts.retval, VAL, "retval is the thrown cookie");
	ASSERT_EQ(skel->bss->fell_through, 0, "it threw");
	ASSERT_EQ(skel->bss->news, 1, "one object taken");
	ASSERT_NEQ(skel->bss->taken, 0, "its address");
	ASSERT_EQ(skel->bss->drops, 1, "one object dropped");
	ASSERT_EQ(skel->bss->dropped, skel->bss->taken, "the one taken");
out:
	exceptions_cleanup_st_ops__destroy(skel);
}

/* tail_entry tail-calls tail_target, which throws from a subprog holding
 * a record: the record is discarded, and the cookie is what test_run sees.
 */
static void test_tail_target(void)
{
	struct exceptions_cleanup_safety *skel;
	struct ring_buffer *ringbuf = NULL;
	int samples = 0, zero = 0, fd;
	struct ring *ring;

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4));

	skel = exceptions_cleanup_safety__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	bpf_program__set_autoload(skel->progs.tail_entry, true);
	bpf_program__set_autoload(skel->progs.tail_target, true);
	if (!ASSERT_OK(exceptions_cleanup_safety__load(skel), "load"))
		goto out;
	fd = bpf_program__fd(skel->progs.tail_target);
	if (!ASSERT_OK(bpf_map_update_elem(bpf_map__fd(skel->maps.jmp_table), &zero, &fd,
					   BPF_ANY), "jmp_table[0] = tail_target"))
		goto out;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), count_sample, &samples, NULL);
	ring = ringbuf ? ring_buffer__ring(ringbuf, 0) : NULL;
	if (!ASSERT_OK_PTR(ring, "ring"))
		goto out;
	if (ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.tail_entry), &topts),
		      "run"))
		ASSERT_EQ(topts.retval, VAL, "retval is the target's cookie");
	ring_released(ringbuf, ring, &samples, 0, true);
out:
	ring_buffer__free(ringbuf);
	exceptions_cleanup_safety__destroy(skel);
}

/* ext_target holds a record across exc_global_work(), replaced by
 * ext_throw, which throws holding a record of its own ring: that one is
 * discarded; the caller's is submitted, once, with the cookie the call
 * returned.
 */
static void test_freplace(void)
{
	struct exceptions_cleanup_safety *skel = open_prog("ext_target", 0);
	struct ring_buffer *ringbuf = NULL, *ext_ringbuf = NULL;
	struct exceptions_cleanup_ext *ext = NULL;
	struct ring *ring = NULL, *ext_ring = NULL;
	int samples = 0, ext_samples = 0, fd;
	struct bpf_link *link = NULL;

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4));

	if (!skel)
		return;
	fd = bpf_program__fd(skel->progs.ext_target);
	ext = exceptions_cleanup_ext__open();
	if (!ASSERT_OK_PTR(ext, "open extension") ||
	    !ASSERT_OK(bpf_program__set_attach_target(ext->progs.ext_throw, fd,
						      "exc_global_work"), "set target") ||
	    !ASSERT_OK(exceptions_cleanup_ext__load(ext), "load extension"))
		goto out;
	link = bpf_program__attach_freplace(ext->progs.ext_throw, fd, "exc_global_work");
	if (!ASSERT_OK_PTR(link, "attach freplace"))
		goto out;
	ringbuf = ring_buffer__new(bpf_map__fd(skel->maps.rb), record_sample, &samples, NULL);
	ring = ringbuf ? ring_buffer__ring(ringbuf, 0) : NULL;
	ext_ringbuf = ring_buffer__new(bpf_map__fd(ext->maps.rb_ext), count_sample,
				       &ext_samples, NULL);
	ext_ring = ext_ringbuf ? ring_buffer__ring(ext_ringbuf, 0) : NULL;
	if (!ASSERT_OK_PTR(ring, "ring") || !ASSERT_OK_PTR(ext_ring, "extension's ring"))
		goto out;
	if (ASSERT_OK(bpf_prog_test_run_opts(fd, &topts), "run"))
		ASSERT_EQ(topts.retval, VAL, "the call returned the extension's cookie");
	ring_released(ringbuf, ring, &samples, 1, true);
	ASSERT_EQ(last_record, VAL, "the caller's record, submitted with the cookie");
	ring_released(ext_ringbuf, ext_ring, &ext_samples, 0, true);
	ASSERT_EQ(ext->bss->fell_through, 0, "the extension threw");
out:
	bpf_link__destroy(link);
	ring_buffer__free(ringbuf);
	ring_buffer__free(ext_ringbuf);
	exceptions_cleanup_ext__destroy(ext);
	exceptions_cleanup_safety__destroy(skel);
}

/* bpf_throw is a kfunc of every program type: each throws holding a
 * record, run by test_run where the kernel offers it, else attached and
 * fired from its own context, down to a perf event's timer interrupt.
 * Those that cannot be fired here only load. (No lwt_*: the test kernels
 * have no CONFIG_LWTUNNEL_BPF.)
 */
static void test_program_types(void)
{
	static const char * const load_only[] = {
		"type_lsm", "type_cgroup_sock_addr",
		"type_sockops", "type_sk_msg", "type_sk_skb",
		"type_cgroup_sysctl", "type_cgroup_sockopt", "type_sk_reuseport",
	};
	struct bpf_sk_lookup lookup = {
		.family = AF_INET, .protocol = IPPROTO_TCP,
		.remote_ip4 = htonl(0x7f000001), .remote_port = htons(5555),
		.local_ip4 = htonl(0x7f000001), .local_port = 6666,
	};
	LIBBPF_OPTS(bpf_test_run_opts, pkt, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4));
	struct bpf_flow_keys keys;
	/* the flow keys are copied out: without room for them, -ENOSPC */
	LIBBPF_OPTS(bpf_test_run_opts, flow, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4), .data_out = &keys,
		    .data_size_out = sizeof(keys));
	LIBBPF_OPTS(bpf_test_run_opts, none);
	LIBBPF_OPTS(bpf_test_run_opts, sk, .ctx_in = &lookup,
		    .ctx_size_in = sizeof(lookup));
	struct exceptions_cleanup_safety *skel;
	int i, fmod;

	run_prog("type_socket", 0, TEST_RUN, &pkt, VAL, true);
	run_prog("type_tc", 0, TEST_RUN, &pkt, VAL, true);
	run_prog("type_xdp", 0, TEST_RUN, &pkt, VAL, true);
	run_prog("type_cgroup_skb", 0, TEST_RUN, &pkt, 1, true);
	run_prog("type_flow_dissector", 0, TEST_RUN, &flow, VAL, true);
	run_prog("type_netfilter", 0, TEST_RUN, &pkt, 1, true);
	run_prog("type_raw_tp", 0, TEST_RUN, &none, VAL, true);
	run_prog("type_syscall", 0, TEST_RUN, &none, VAL, true);
	run_prog("type_sk_lookup", 0, TEST_RUN, &sk, 1, true);
	/* test_run of an fentry program calls its target, bpf_fentry_test1 */
	run_prog("type_fentry", 0, TRAMPOLINE, &none, -1, true);
	run_prog("type_fexit", 0, TRAMPOLINE, &none, -1, true);
	/* the throw's cookie replaced the return value, as a return would */
	fmod = fmod_ret_reference();
	if (fmod >= 0)
		run_prog("type_fmod_ret", 0, TRAMPOLINE, &none, fmod, true);
	run_prog("type_sched_act", 0, TEST_RUN, &pkt, VAL, true);
	run_prog("type_kprobe", 0, KPROBE, NULL, -1, true);
	run_prog("type_kprobe_int3", 0, KPROBE_INT3, NULL, -1, true);
	run_prog("type_tracepoint", 0, TRACEPOINT, NULL, -1, true);
	run_prog("type_raw_tp_attached", 0, TRACEPOINT, NULL, -1, true);
	run_prog("type_tp_btf", 0, TRACEPOINT, NULL, -1, true);
	run_prog("type_perf_event", 0, PERF_EVENT, NULL, -1, true);
	run_prog("type_cgroup_sock", 0, CGROUP_SOCK, NULL, -1, true);
	run_prog("type_lsm_sleepable", 0, LSM_OPEN, NULL, -1, true);
	for (i = 0; i < ARRAY_SIZE(load_only); i++) {
		skel = open_prog(load_only[i], 0);
		ASSERT_OK_PTR(skel, load_only[i]);
		exceptions_cleanup_safety__destroy(skel);
	}
}

/* A tc program with @sites throw sites: site k throws when skb->mark == k.
 * With @fill, each first spills a scalar into all 64 stack slots, so that
 * every descriptor describes 64 locations (about 3 KiB).
 */
static int load_throw_sites(int sites, bool fill, char *log, size_t sz)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sz,
		    .log_level = log ? 1 : 0);
	int i, n = 0, id, fd = -ENOMEM;
	struct bpf_insn *insns;
	struct btf *btf;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "vmlinux btf"))
		return -EINVAL;
	id = btf__find_by_name_kind(btf, "bpf_throw", BTF_KIND_FUNC);
	btf__free(btf);
	if (!ASSERT_GT(id, 0, "bpf_throw btf id"))
		return -EINVAL;
	insns = calloc(4 * sites + 80, sizeof(*insns));
	if (!ASSERT_OK_PTR(insns, "insns"))
		return -ENOMEM;
	insns[n++] = BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1,
				 offsetof(struct __sk_buff, mark));
	for (i = 1; fill && i <= 64; i++)
		insns[n++] = BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_2, -8 * i);
	for (i = 0; i < sites; i++) {
		insns[n++] = BPF_JMP_IMM(BPF_JNE, BPF_REG_2, i, 2);
		insns[n++] = BPF_MOV64_IMM(BPF_REG_1, 0);
		insns[n++] = BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0,
					  BPF_PSEUDO_KFUNC_CALL, 0, id);
	}
	insns[n++] = BPF_MOV64_IMM(BPF_REG_0, 1);
	insns[n++] = BPF_EXIT_INSN();
	if (log)
		log[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "throw_sites", "GPL",
			   insns, n, &opts);
	free(insns);
	return fd;
}

/* One descriptor per throw site here: 16384 of them load, and throw;
 * one more is refused, as are 6000 sites of 64 locations (over 16 MiB).
 * Without the bounds a loader could make the verifier allocate a
 * descriptor per site and frame, several KiB each, without limit.
 */
static void test_descriptor_limits(void)
{
	/* level 1 logs every insn: room for all of them, so that the load
	 * fails with the verifier's error, not with -ENOSPC
	 */
	size_t sz = 64 << 20;
	char *log = malloc(sz);
	struct __sk_buff skb = { .mark = 16383 };

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4), .ctx_in = &skb,
		    .ctx_size_in = sizeof(skb));
	const char *msg = "frame descriptors or 16 MiB for them";
	int fd;

	if (!ASSERT_OK_PTR(log, "log"))
		return;
	fd = load_throw_sites(16384, false, NULL, 0);
	if (ASSERT_GE(fd, 0, "16384 sites load")) {
		ASSERT_OK(bpf_prog_test_run_opts(fd, &topts), "test_run");
		ASSERT_EQ(topts.retval, 0, "the last site threw");
		close(fd);
	}
	fd = load_throw_sites(16385, false, log, sz);
	ASSERT_EQ(fd, -E2BIG, "16385 sites refused");
	ASSERT_HAS_SUBSTR(log, msg, "the log says why");
	fd = load_throw_sites(6000, true, log, sz);
	ASSERT_EQ(fd, -E2BIG, "6000 sites of 64 slots refused");
	ASSERT_HAS_SUBSTR(log, msg, "the log says why");
	fd = load_throw_sites(2000, true, NULL, 0);
	ASSERT_GE(fd, 0, "2000 sites of 64 slots load");
	if (fd >= 0)
		close(fd);
	free(log);
}

/* The kernel's boot-time test of destructor registration
 * (kernel/bpf/dtor_selftest.c, CONFIG_BPF_DTOR_SELFTEST) logs one result
 * line: find it in /dev/kmsg. Its cases are the registrations bpf_throw's
 * table must refuse, and that a refusal keeps the earlier entries.
 */
static void test_dtor_registration(void)
{
	const char *key = "bpf_dtor_selftest: ";
	int fd, passed = -1, failed = -1;
	char rec[1024], *p;
	ssize_t n;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (!ASSERT_GE(fd, 0, "open /dev/kmsg"))
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		p = strstr(rec, key);
		if (p && strstr(p, " passed, "))
			sscanf(p + strlen(key), "%d passed, %d failed", &passed, &failed);
		else if (p)
			fprintf(stderr, "%s", p);	/* a failed case says which */
	}
	close(fd);
	if (!ASSERT_NEQ(passed, -1, "result line in the kernel log (CONFIG_BPF_DTOR_SELFTEST=y?)"))
		return;
	ASSERT_EQ(passed, 6, "cases passed");
	ASSERT_EQ(failed, 0, "cases failed");
}

#define FASTCALL_KEY 0x77

/* A helper's key in the bpf_fastcall spill slot: the map must hold the
 * key the program spilled there, and nothing else (not the caller's R6).
 */
static void test_fastcall_helper_key(void)
{
	struct exceptions_cleanup_safety *skel;
	__u64 key = 0, next;
	int fd;

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4));

	skel = open_prog("fastcall_helper_key", 0);
	if (!skel)
		return;
	if (!ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fastcall_helper_key),
					      &topts), "run"))
		goto out;
	fd = bpf_map__fd(skel->maps.fastcall_keys);
	if (!ASSERT_OK(bpf_map_get_next_key(fd, NULL, &key), "a key"))
		goto out;
	ASSERT_EQ(key, FASTCALL_KEY, "the key is the spilled one");
	ASSERT_EQ(bpf_map_get_next_key(fd, &key, &next), -ENOENT, "one key");
out:
	exceptions_cleanup_safety__destroy(skel);
}

/* A kfunc's buffer in the spill slot: a slice across the end of the
 * linear part of a multi-buffer packet is copied into it, and the
 * caller's R6 (returned) must not be what was copied.
 */
static void test_fastcall_kfunc_buffer(void)
{
	struct exceptions_cleanup_safety *skel;
	static char pkt[5000];

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt,
		    .data_size_in = sizeof(pkt));

	memset(pkt, 0xab, sizeof(pkt));
	skel = open_prog("fastcall_kfunc_buffer", 0);
	if (!skel)
		return;
	if (ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fastcall_kfunc_buffer),
					     &topts), "run"))
		ASSERT_EQ(topts.retval, 7, "the caller's R6 is intact");
	exceptions_cleanup_safety__destroy(skel);
}

/* Run @name once; it must return 7, the value the verifier knows */
static void run_retval7(const char *name)
{
	struct exceptions_cleanup_safety *skel = open_prog(name, 0);
	struct bpf_program *prog;

	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4));

	if (!skel)
		return;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (ASSERT_OK(bpf_prog_test_run_opts(bpf_program__fd(prog), &topts), "run"))
		ASSERT_EQ(topts.retval, 7, "the value the verifier knows");
	exceptions_cleanup_safety__destroy(skel);
}

void test_exceptions_cleanup_safety(void)
{
	if (test__start_subtest("dtor_registration"))
		test_dtor_registration();
	if (test__start_subtest("descriptor_limits"))
		test_descriptor_limits();
	if (test__start_subtest("program_types"))
		test_program_types();
	if (test__start_subtest("struct_ops"))
		test_struct_ops();
	if (test__start_subtest("tail_call_reachable"))
		run_case("tail_call_reachable", 0, 0, true);
	if (test__start_subtest("tail_call_target"))
		test_tail_target();
	if (test__start_subtest("freplace"))
		test_freplace();
	if (test__start_subtest("fastcall_slot"))
		run_case("fastcall_slot", 0, 0, true);
	if (test__start_subtest("fastcall_helper_key"))
		test_fastcall_helper_key();
	if (test__start_subtest("fastcall_kfunc_buffer"))
		test_fastcall_kfunc_buffer();
	if (test__start_subtest("fastcall_unequal_patterns"))
		run_retval7("fastcall_unequal_patterns");
	if (test__start_subtest("fastcall_cross_frame_read"))
		run_retval7("fastcall_cross_frame_read");
	if (test__start_subtest("fastcall_far_dead_pattern"))
		run_retval7("fastcall_far_dead_pattern");
	if (test__start_subtest("fastcall_dead_long_pattern"))
		run_retval7("fastcall_dead_long_pattern");
	/* the callback's 0 is the program's return value */
	if (test__start_subtest("fastcall_dead_pattern")) {
		LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
			    .data_size_in = sizeof(pkt_v4));

		run_prog("fastcall_dead_pattern", 0, TEST_RUN, &topts, 0, false);
	}
	if (test__start_subtest("fastcall_misaligned_dead_pattern")) {
		LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = &pkt_v4,
			    .data_size_in = sizeof(pkt_v4));

		run_prog("fastcall_misaligned_dead_pattern", 0, TEST_RUN, &topts, 0, false);
	}
	if (test__start_subtest("fastcall_misaligned_two_pairs"))
		run_retval7("fastcall_misaligned_two_pairs");
	/* mark 0: R6 is NULL, written by a 32-bit insn */
	if (test__start_subtest("rnd_hi32_null"))
		run_case("rnd_hi32_null", BPF_F_TEST_RND_HI32, 0, false);
	if (test__start_subtest("rnd_hi32_record"))
		run_case("rnd_hi32_null", BPF_F_TEST_RND_HI32, 1, true);
	if (test__start_subtest("prologue_insn0"))
		run_case("prologue_insn0", 0, 0, true);
	if (test__start_subtest("may_goto_insn0"))
		run_case("may_goto_insn0", 0, 0, true);
	if (test__start_subtest("blinding_refused"))
		test_blinding_refused();
}

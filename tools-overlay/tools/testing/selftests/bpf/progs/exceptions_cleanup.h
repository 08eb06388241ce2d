/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by exceptions_cleanup.c and exceptions_cleanup_fail.c */
#ifndef __EXCEPTIONS_CLEANUP_H
#define __EXCEPTIONS_CLEANUP_H

/* The cookie the cases throw; the default callback returns it */
#define VAL 0xeB9F

/* Inline asm: reserve an 8 byte record of the map rb into r0. The asm
 * statement passes __imm(bpf_ringbuf_reserve) and __imm_addr(rb).
 */
#define RB_RESERVE_8			\
	"r1 = %[rb] ll;"		\
	"r2 = 8;"			\
	"r3 = 0;"			\
	"call %[bpf_ringbuf_reserve];"

/* Kinds of object whose pointers the observers of exceptions_cleanup.c
 * record, when the kernel hands one out and when it takes one back.
 */
enum exc_kind {
	EXC_OBJ,	/* bpf_obj_new, bpf_percpu_obj_new (bit 0: percpu) */
	EXC_ITER,	/* bpf_iter_num, by the address of the iterator */
	EXC_TASK,
	EXC_CGROUP,
	EXC_CPUMASK,
	EXC_KINDS,
};

#define EXC_MAX_PTRS 128

struct exc_ptrs {
	unsigned int n;		/* how many, even past EXC_MAX_PTRS */
	unsigned long long p[EXC_MAX_PTRS];
};

#endif /* __EXCEPTIONS_CLEANUP_H */

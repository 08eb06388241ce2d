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

#endif /* __EXCEPTIONS_CLEANUP_H */

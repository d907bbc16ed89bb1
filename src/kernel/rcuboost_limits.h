/* rcuboost_limits.h - what the real-kernel module holds, in one table:
 * rcuboost_kmod.c sizes its arrays by it and refuses a program past it;
 * `rcuboost kernel-program` checks a scenario against it before a boot, so
 * that a scenario the module would refuse is refused by name, not found out
 * as a boot that never finishes. */
#ifndef RCUBOOST_LIMITS_H
#define RCUBOOST_LIMITS_H

#define RCUBOOST_MAX_TASKS      512     /* task lines: every copy of count=N */
#define RCUBOOST_MAX_INSNS      256     /* instructions of one task's program */
#define RCUBOOST_MAX_SLOTS      16      /* nested repeat counters of one program */
#define RCUBOOST_MAX_MUTEXES    64
#define RCUBOOST_MAX_EVENTS     64
/* a kthread's name is TASK_COMM_LEN (16) bytes with its NUL: a longer task
 * name is cut, and an [event] naming the task would match nothing */
#define RCUBOOST_MAX_NAME       15

#endif

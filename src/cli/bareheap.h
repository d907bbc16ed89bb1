/* bareheap.h - the baseline `rcuboost bench` measures every case against. */
#ifndef RCUBOOST_BAREHEAP_H
#define RCUBOOST_BAREHEAP_H

/* The null-event workload on a bare 4-ary min-heap of (time, seq) keys
 * with @population pending: wall seconds for the timed events, whose
 * number goes to *@events. */
double bare_heap_run(int population, double *events);

#endif

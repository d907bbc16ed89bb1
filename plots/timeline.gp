# timeline.gp - a Gantt chart of one policy's run in the timeline window.
#
# Set by `rcuboost compare`, which turns POLICY/timeline.csv into
# POLICY/timeline-plot.dat (lane, start_ms, end_ms, half_height, rgb) and
# POLICY/timeline-marks.dat (lane, time_ms: a priority change there):
#   datafile, marks, policy, scenario, term, outfile
#   yticks     the lanes, as a gnuplot tic list ("cpu0" 0, "gp" 1, ...)
#   nlanes     how many lanes
#   taskkeys   "TASK #rrggbb ...": the tasks with a colour of their own on the CPU lanes
set terminal @term
set termoption noenhanced   # call_rcu() and synchronize_rcu() as written, no subscripts
set output outfile
set title sprintf("What ran, who was in a critical section, who was boosted -- %s, policy %s", scenario, policy)
set xlabel "simulated time (ms)"
set yrange [nlanes - 0.3:-0.7]
eval sprintf("set ytics (%s)", yticks)
set grid x
set key outside bottom center horizontal maxrows 4
set style fill solid 1.0 noborder
ntasks = words(taskkeys) / 2
plot datafile using (($2+$3)/2):1:(($3-$2)/2):4:5 with boxxyerror lc rgb variable notitle, \
     marks using 2:1 with points pt 9 ps 1.2 lc rgb "#000000" title "priority change (sched_pi_setprio)", \
     NaN with boxes lc rgb "#4f81bd" title "read-side critical section, running", \
     NaN with boxes lc rgb "#a9c4e4" title "... off its CPU (preempted or blocked)", \
     NaN with boxes lc rgb "#c00000" title "boosted", \
     NaN with boxes lc rgb "#f2c14e" title "GP waitack", \
     NaN with boxes lc rgb "#e07b39" title "GP waitzero; tree: a GP", \
     NaN with boxes lc rgb "#f3b58a" title "tree: the next GP (every other one lighter)", \
     NaN with boxes lc rgb "#6aa84f" title "GP waitmb", \
     for [i=1:ntasks] NaN with boxes lc rgb word(taskkeys, 2*i) title "CPU runs ".word(taskkeys, 2*i-1), \
     NaN with boxes lc rgb "#bfbfbf" title "CPU runs another task"

# memory.gp - memory waiting on RCU over time, one curve per policy.
#
# Set by `rcuboost compare` (or by hand with gnuplot -e "..."):
#   datadir    the compare output directory (DATADIR/POLICY/memory.csv)
#   policies   space-separated policy names
#   titles     the same, a run that did not finish marked (pi-lock(FAILED)), for the key
#   colours    the same, each policy's colour (one palette for every plot)
#   scenario   scenario name, for the title
#   limit_mib  the memory limit in MiB (0: none)
#   term, outfile  terminal specification and output file
set terminal @term
set termoption noenhanced   # call_rcu() and synchronize_rcu() as written, no subscripts
set output outfile
set datafile separator ","
set title sprintf("Memory waiting on RCU over time -- scenario %s", scenario)
set xlabel "simulated time (s)"
set ylabel "memory waiting on RCU (MiB)"
set grid
set key top left box opaque
set yrange [0:*]
if (limit_mib > 0) {
    set arrow 1 from graph 0, first limit_mib to graph 1, first limit_mib nohead dt 2 lw 2 lc rgb "#c00000"
    set label 1 sprintf("memory limit (%g MiB)", limit_mib) at graph 0.99, first limit_mib right offset 0,0.7 tc rgb "#c00000"
}
plot for [i=1:words(policies)] datadir.'/'.word(policies, i).'/memory.csv' \
         every ::1 using ($1/1e9):($2/1048576.0) with lines lw 2 lc rgb word(colours, i) title word(titles, i), \
     datadir.'/oom-events.csv' every ::1 using 2:3 with points pt 7 ps 2 lc rgb "#c00000" title "out of memory"

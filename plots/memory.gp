# memory.gp - memory waiting on RCU over time, one band per policy: the
# median over its runs (seeds) as a line, the range from the lowest to the
# highest run shaded; every run that ran out of memory a red dot.  Runs that
# split by an outcome (some out of memory or stalled, some not) get a median
# each: those with it solid, the others dashed (column 5).
#
# Set by `rcuboost compare` (or by hand with gnuplot -e "..."):
#   datadir    the compare output directory: DATADIR/POLICY/memory-band.dat
#              ("time_s,median_mib,min_mib,max_mib,other_median_mib"), DATADIR/oom-events.csv
#              ("policy,seed,time_s,mib")
#   policies   space-separated policy names
#   titles     the same as quoted strings, for the key (runs, out-of-memory count)
#   colours    the same, each policy's colour (one palette for every plot)
#   scenario   scenario name, for the title
#   limit_mib  the memory limit in MiB (0: none)
#   timelabel  the x axis's label: "simulated time (s)", or with a real kernel's
#              runs beside the model's, time from each run's start
#   term, outfile  terminal specification and output file
set terminal @term
set termoption noenhanced   # call_rcu() and synchronize_rcu() as written, no subscripts
set output outfile
set datafile separator ","
set title sprintf("Memory waiting on RCU over time -- scenario %s", scenario)
set xlabel timelabel offset 0,0.4
set ylabel "memory waiting on RCU (MiB)"
set grid
# the key below the plot, never over a curve (#58); a curve flat at zero a
# little above the x axis, not on it
set key below box spacing 1.1 height 1
set yrange [*:*]
set autoscale yfix
set offsets 0, 0, graph 0.05, graph 0.03
if (limit_mib > 0) {
    set arrow 1 from graph 0, first limit_mib to graph 1, first limit_mib nohead dt 2 lw 2 lc rgb "#c00000"
    set label 1 sprintf("memory limit (%g MiB)", limit_mib) at graph 0.99, first limit_mib right offset 0,0.7 tc rgb "#c00000"
}
set style fill transparent solid 0.18 noborder
plot for [i=1:words(policies)] datadir.'/'.word(policies, i).'/memory-band.dat' \
         every ::1 using 1:3:4 with filledcurves lc rgb word(colours, i) notitle, \
     for [i=1:words(policies)] datadir.'/'.word(policies, i).'/memory-band.dat' \
         every ::1 using 1:2 with lines lw 2 lc rgb word(colours, i) title word(titles, i), \
     for [i=1:words(policies)] datadir.'/'.word(policies, i).'/memory-band.dat' \
         every ::1 using 1:5 with lines lw 2 dt 2 lc rgb word(colours, i) notitle, \
     datadir.'/oom-events.csv' every ::1 using 3:4 with points pt 7 ps 1.5 lc rgb "#c00000" title "a run out of memory"

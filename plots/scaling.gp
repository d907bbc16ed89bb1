# scaling.gp - engine cost against the size of the simulated system.
# Set by `rcuboost bench`: datafile (series size events_per_s ns_per_event rss_mib), outfile.
set terminal pngcairo size 1100,500 font "Sans,10" noenhanced
set output outfile
set multiplot layout 1,2 title "rcuboost engine scaling (medians; 1 s simulated per case)"
set logscale x
set grid
set key top left
set xlabel "size of the simulated system"
set ylabel "wall-clock ns per event"
set yrange [0:*]
plot datafile using (strcol(1) eq "cpus" ? $2 : NaN):4 with linespoints lw 2 pt 7 title "CPUs (32 tasks per CPU)", \
     datafile using (strcol(1) eq "tasks" ? $2 : NaN):4 with linespoints lw 2 pt 5 title "tasks (on 16 CPUs)"
set ylabel "peak RSS (MiB)"
plot datafile using (strcol(1) eq "cpus" ? $2 : NaN):5 with linespoints lw 2 pt 7 title "CPUs (32 tasks per CPU)", \
     datafile using (strcol(1) eq "tasks" ? $2 : NaN):5 with linespoints lw 2 pt 5 title "tasks (on 16 CPUs)"
unset multiplot

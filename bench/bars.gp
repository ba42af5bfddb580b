# Clustered or stacked bar chart from one data file: first column is the label,
# columns 2..ncols+1 the series (their names in the header line "# label s1 s2 ...").
#   gnuplot -e "file='f.dat'; ncols=3; names='a b c'; stacked=0; ylab='...'; ttl='...';
#               out='x.svg'" bench/bars.gp
set terminal svg size 900,420 dynamic font "sans,11" background rgb "white"
set termoption noenhanced
set output out
set title ttl
set ylabel ylab
set grid ytics
set key outside right top
set yrange [0:*]
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics nomirror
if (stacked) {
	set style histogram rowstacked
} else {
	set style histogram clustered gap 1
}
set style data histograms
plot for [i=2:ncols+1] file using i:xtic(1) title word(names, i - 1)

# Sourced by the benchmark scripts, once they have set $tmp (a scratch
# folder): the wall time and peak memory of one command, and medians.

# measure NAME command...: appends the wall time in ms to $tmp/NAME.ms and
# the peak RSS in KiB (/usr/bin/time -v) to $tmp/NAME.rss; the command's
# standard output goes to $tmp/NAME.out.
measure() {
  measure_name=$1
  shift
  measure_t0=$(date +%s%N)
  /usr/bin/time -v -o "$tmp/time.txt" "$@" > "$tmp/$measure_name.out"
  measure_t1=$(date +%s%N)
  echo $(((measure_t1 - measure_t0) / 1000000)) >> "$tmp/$measure_name.ms"
  sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt" >> "$tmp/$measure_name.rss"
}

# median FILE, max FILE: of the numbers in FILE, one a line.
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
max() { sort -n "$1" | tail -1; }

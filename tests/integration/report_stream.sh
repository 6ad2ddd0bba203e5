#!/bin/sh
# The disk.stream table of `show` keeps its columns under their headers,
# the median row too, at the 1000+ MiB/s of an NVMe disk: every row ends
# where the header's %CPU does, and the figures stand under each other.
set -eu
. "$(dirname "$0")/lib.sh"

cat >"$T/s.csv" <<EOF2
run,time,workload,metric,value,unit,better,host,iteration
s1,1700000000,disk.stream,write_mibps,912.3,MiB/s,higher,h,1
s1,1700000000,disk.stream,seg_mean_mibps,915.1,MiB/s,higher,h,1
s1,1700000000,disk.stream,seg_sd_mibps,12.4,MiB/s,lower,h,1
s1,1700000000,disk.stream,write_cpu,7.5,%CPU,lower,h,1
s1,1700000000,disk.stream,write_mibps,1512.3,MiB/s,higher,h,2
s1,1700000000,disk.stream,seg_mean_mibps,1515.1,MiB/s,higher,h,2
s1,1700000000,disk.stream,seg_sd_mibps,10.2,MiB/s,lower,h,2
s1,1700000000,disk.stream,write_cpu,9.5,%CPU,lower,h,2
EOF2
pw import "$T/s.csv" >/dev/null
pw show s1 >"$T/show.out"
sed -n '/^disk.stream: /,/^$/p' "$T/show.out" | sed -n '2,$p' |
    sed '/^$/d' >"$T/table"
[ "$(wc -l <"$T/table")" -eq 4 ] || fail "table: $(cat "$T/show.out")"
# Every line as long as the header, and the MiB/s figures right-aligned
# under "MiB/s".
awk -v want="$(head -1 "$T/table" | awk '{ print length($0) }')" \
    'length($0) != want { exit 1 }' "$T/table" ||
	fail "ragged table: $(cat "$T/table")"
expect_eq "$(sed -n 4p "$T/table")" \
    'median  1212.3       1215.1 +-   11.3          8.5'
expect_eq "$(sed -n 3p "$T/table")" \
    '     2  1512.3       1515.1 +-   10.2          9.5'
# A row for each iteration the run has, not one for every number up to
# its last: an import numbered 1 and 1000000 printed a million rows.
cat >"$T/sparse.csv" <<'EOF2'
run,time,workload,metric,value,unit,better,host,iteration
sparse,1700000000,disk.stream,write_mibps,100,MiB/s,higher,h,1
sparse,1700000000,disk.stream,write_mibps,110,MiB/s,higher,h,1000000
sparse,1700000000,disk.bonnie,write_kps,100,K/sec,higher,h,2
sparse,1700000000,disk.bonnie,read_kps,110,K/sec,higher,h,900000
EOF2
pw import "$T/sparse.csv" >/dev/null
pw show sparse >"$T/sparse.out"
[ "$(wc -l <"$T/sparse.out")" -lt 30 ] ||
	fail "sparse: $(wc -l <"$T/sparse.out") lines"
[ "$(grep -c '^ *\(1\|2\|900000\|1000000\) ' "$T/sparse.out")" -eq 4 ] ||
	fail "sparse: $(cat "$T/sparse.out")"

pass

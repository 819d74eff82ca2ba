# The largest absolute difference between two features files of `ich extract` (the feature_*,
# bag_cnn_probability and cnn_attention columns), row by row: the first file is the reference.
# Prints "LABEL on N slices: largest difference D"; exits 1 unless N > 0 and D < TOL.
# Usage: awk -F, -v label=LABEL -v tol=TOL -f scripts/bench/features-diff.awk REF.csv OTHER.csv
NR == FNR { for (i = 1; i <= NF; i++) a[FNR, i] = $i; next }
FNR == 1 { for (i = 1; i <= NF; i++) num[i] = ($i ~ /^feature_/ || $i == "bag_cnn_probability" || $i == "cnn_attention"); next }
{ for (i = 1; i <= NF; i++) if (num[i]) { d = $i - a[FNR, i]; if (d < 0) d = -d; if (d > max) max = d }; rows++ }
END { printf "%s on %d slices: largest difference %.2e\n", label, rows, max; exit !(rows > 0 && max < tol) }

# Sourced by the device scripts: keep_known_metrics "m1,m2,..." prints the comma list of those this
# ncu knows (launch__* are always kept) and logs the others to stderr.
keep_known_metrics() {
  local known keep="" m
  known=$(ncu --query-metrics 2>&1)
  for m in ${1//,/ }; do
    if grep -q "^${m%%.*} " <<<"$known" || [[ $m == launch__* ]]; then keep="$keep,$m"; else echo "ncu lacks $m" >&2; fi
  done
  echo "${keep#,}"
}

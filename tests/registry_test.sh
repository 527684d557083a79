#!/usr/bin/env bash
# The registries (issue 24): a disk kind, an aio mode and an accept policy is
# one row (models/scenario/disk_kinds.h, models/server/aio_modes.h,
# models/server/accept_policies.h), and no code outside the kind's own files
# and the registry names it. This greps the C++ sources (tests aside: a
# kind's tests name it) for what would name one:
#   - the enums the rows replaced (DiskKind::..., AioMode::k..., AcceptPolicy::k...);
#   - a disk kind's scenario word as a string ("hdd", "raid0", "raid1", "raid10", "simple", "ssd");
#   - an aio mode's scenario word as a string on a line about aio ("threads");
#   - a disk kind's spec type (HddSpec, Raid0Spec, Raid1Spec, Raid10Spec, SimpleDiskSpec, SsdSpec, NoDiskSpec);
#   - a disk kind's model: its device class (Hdd, MdArray, SimpleDisk, Ssd,
#     NoDisk, and their cores HddDrive, MdLayer, SsdDrive), a dynamic_cast
#     to one, or an include of its header. A front end asks the device
#     (block_device.h's drive_views and drive_words) or the row instead.
# Every front end (ui/, cli/), engine (engines/), testbed/, bench/ and fuzz/
# is checked; tests are not (see sources()).
#
#   registry_test.sh SOURCE_DIR    prints each place that names a kind; exit 1 if any
#   registry_test.sh --self-test   checks the checker on a planted tree
set -u

# A kind's own files and the registries, as extended regular expressions over paths.
disk_own='^(models/hardware/(hdd|hdd_drive|md_array|md_layer|simple_disk|ssd|ssd_drive|no_disk)\.(h|cpp)|models/scenario/(disk_kinds\.(h|cpp)|disk_spec\.h|disks/.*)|engines/simgrid/sg_(hdd|ssd|md_array|simple_disk|disks|disk_actors)\.(h|cpp))$'
aio_own='^models/server/aio_modes\.(h|cpp)$'
# Not a kind's words in the scenario, but a program's of its own: clerk-serve's
# --aio (testbed/serve, a real server), clerk calibrate writing the SSD
# profile it measured (the SSD's keys, testbed/calibrate/profile_content.cpp)
# and fitting the SSD model to fio's figures (testbed/calibrate/fio_fit.cpp).
outside_model='^(testbed/serve/|testbed/calibrate/(profile_content|fio_fit)\.cpp$)'

# Every C++ source line of the tree but the tests', comments cut off:
# "PATH:LINE:TEXT". The key reference's prose on what is not modelled yet
# (markdown lines "- ..." in key_reference.cpp) is documentation, not code.
sources() {
  (cd "$1" && grep -rnE --include='*.h' --include='*.cpp' '' common sim models engines testbed ui cli bench fuzz 2>/dev/null) |
    grep -vE '^[^:]*(^|/)tests/' | grep -vE '^models/scenario/key_reference\.cpp:[0-9]+:- ' | sed -E 's#//.*$##'
}

# Lines matching `pattern` whose path does not match `allowed`, with `why`.
report() {  # source-lines-file, pattern, allowed-path-regex, why
  local lines=$1 pattern=$2 allowed=$3 why=$4 path
  grep -E -- "$pattern" "$lines" | while IFS= read -r hit; do
    path=${hit%%:*}
    [[ $path =~ $allowed ]] && continue
    [[ $path =~ $outside_model ]] && continue
    echo "$hit"
    echo "    ^ $why"
  done
}

check() {
  local root=$1 lines
  lines=$(mktemp)
  sources "$root" >"$lines"
  {
    report "$lines" '(DiskKind|AioMode|AcceptPolicy)::k[A-Z]|\bk(DiskKinds|AioModes|AcceptPolicies)\b' '^$' \
      "an enum of kinds: the registries replaced it (disk_kinds.h, aio_modes.h, accept_policies.h)"
    report "$lines" '"(hdd|raid0|raid1|raid10|simple|ssd)"|type = \\"(hdd|raid0|raid1|raid10|simple|ssd)\\"' "$disk_own" \
      "names a disk kind: ask its row (models/scenario/disk_kinds.h)"
    report "$lines" '[Aa]io.*"threads"|"threads".*[Aa]io|aio = \\"threads\\"' "$aio_own" \
      "names an aio mode: ask its row (models/server/aio_modes.h)"
    report "$lines" '\b(HddSpec|Raid0Spec|Raid1Spec|Raid10Spec|SimpleDiskSpec|SsdSpec|NoDiskSpec)\b' "$disk_own" \
      "a disk kind's spec: only its own files and the registry use it"
    report "$lines" '\b(Hdd|MdArray|SimpleDisk|Ssd|NoDisk|HddDrive|MdLayer|SsdDrive)\b|#include "models/hardware/(hdd|hdd_drive|md_array|md_layer|simple_disk|ssd|ssd_drive|no_disk)\.h' \
      "$disk_own" "a disk kind's model: ask the device (block_device.h: drive_views, drive_words) or its row"
  } >"$lines.out"
  rm -f "$lines"
  if [ -s "$lines.out" ]; then
    cat "$lines.out"
    rm -f "$lines.out"
    return 1
  fi
  rm -f "$lines.out"
  return 0
}

self_test() {
  local t failures=0
  t=$(mktemp -d)
  trap 'rm -rf "$t"' RETURN
  mkdir -p "$t/models/scenario/disks" "$t/models/server" "$t/ui" "$t/tests" "$t/testbed/serve" "$t/engines/simgrid"
  echo 'const char* n = "ssd";' >"$t/models/scenario/disks/ssd.cpp"
  echo 'SsdSpec s;' >"$t/engines/simgrid/sg_disks.cpp"
  echo 'const AioMode k{.name = "threads", .x = 1};' >"$t/models/server/aio_modes.cpp"
  echo 'if (mode == "threads") {}' >"$t/testbed/serve/main.cpp"
  echo 'CHECK(x == models::DiskKind::kSsd);' >"$t/tests/a_test.cpp"
  check "$t" >/dev/null || { echo "FAIL: a clean tree was refused: $(check "$t")"; failures=$((failures + 1)); }
  echo '#include "models/hardware/md_layer.h"' >"$t/engines/simgrid/sg_md_array.cpp"
  echo 'const auto* d = dynamic_cast<const QueuedDevice*>(&disk);' >"$t/ui/queue.cpp"
  check "$t" >/dev/null || { echo "FAIL: a clean tree was refused: $(check "$t")"; failures=$((failures + 1)); }
  local planted where
  for where in ui cli engines; do
    mkdir -p "$t/$where"
    for planted in 'if (sc.hardware.disk == models::DiskKind::kSsd) {}' 'if (type == "raid10") {}' \
                   'const char* w = "type = \"simple\"";' 'std::get<models::HddSpec>(d);' \
                   'if (aio == "threads") {}' 'n.aio = AioMode::kThreads;' \
                   'if (const auto* r = dynamic_cast<const models::MdArray*>(&disk)) {}' \
                   '#include "models/hardware/ssd.h"' 'q.push_back(static_cast<const Hdd&>(d).queued());' \
                   'const models::MdLayer& l = raid.layer();'; do
      printf '%s\n' "$planted" >"$t/$where/planted.cpp"
      check "$t" >/dev/null && { echo "FAIL: not caught in $where/: $planted"; failures=$((failures + 1)); }
    done
    rm -f "$t/$where/planted.cpp"
  done
  [ "$failures" -eq 0 ] && echo "self-test passed"
  return "$failures"
}

case ${1:-} in
  --self-test) self_test ;;
  "") echo "usage: registry_test.sh SOURCE_DIR | --self-test" >&2; exit 2 ;;
  *) check "$1" ;;
esac

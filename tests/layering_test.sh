#!/usr/bin/env bash
# The layers, as the build enforces them (README, "Architecture"): every
# #include of a project file may only point down.
#
#   common/   the bottom support library: includes nothing of the project but common/
#   sim/      the event engine: includes nothing of the project but sim/
#   models/   sim/, common/ and models/ only (no engines/, no front end: cli/, ui/, testbed/);
#             within models/: hardware < os < net < server < clients < scenario, an area
#             includes only its own and lower areas (models/*.h beside them: the bottom)
#   engines/  sim/, common/, models/, engines/ (run_scenario.h: one way to run a scenario on either engine)
#   testbed/  sim/, common/, models/, engines/, testbed/ (not cli/ or ui/: libraries the commands in cli/ drive)
#   ui/       anything but cli/ and testbed/ (front ends do not include each other)
#   cli/, tests/, bench/, fuzz/: on top, unrestricted
#
#   layering_test.sh SOURCE_DIR    prints every include that runs up a layer; exit 1 if any
#   layering_test.sh --self-test   checks the checker on a planted tree
set -u

tops="common sim models engines testbed ui cli tests bench fuzz"

# Rank of a models/ area, in `rank`; an include may go to an equal or lower rank.
area_rank() {
  case $1 in
    hardware) rank=1 ;; os) rank=2 ;; net) rank=3 ;; server) rank=4 ;; clients) rank=5 ;; scenario) rank=6 ;;
    *) rank=0 ;;  # models/*.h beside the areas (task_id.h)
  esac
}

# The area of a path under models/, in `area`: its folder, or "" for a file directly in models/.
area_of() {
  local rest=${1#models/}
  case $rest in */*) area=${rest%%/*} ;; *) area="" ;; esac
}

# Why `from` (a project path) may not include `to` (a project path), in
# `why`; empty when it may. (Variables, not output: no subshell per include.)
violation() {
  local from=$1 to=$2 ftop=${1%%/*} ttop=${2%%/*} fa ta fr tr
  why=""
  case $ftop in
    common) [ "$ttop" = common ] || why="common/ includes nothing of the project outside common/" ;;
    sim) [ "$ttop" = sim ] || why="sim/ includes nothing of the project outside sim/" ;;
    models)
      case $ttop in
        sim | common) ;;
        models)
          area_of "$from"; fa=$area
          area_of "$to"; ta=$area
          area_rank "$fa"; fr=$rank
          area_rank "$ta"; tr=$rank
          if [ "$tr" -gt "$fr" ]; then
            why="models/${fa:-.} may not include models/$ta (hardware < os < net < server < clients < scenario)"
          fi
          ;;
        *) why="models/ includes neither engines/ nor a front end ($ttop/)" ;;
      esac
      ;;
    engines) case $ttop in sim | common | models | engines) ;; *) why="engines/ includes no front end ($ttop/)" ;; esac ;;
    testbed) case $ttop in sim | common | models | engines | testbed) ;; *) why="testbed/ does not include $ttop/" ;; esac ;;
    ui) case $ttop in cli | testbed) why="ui/ does not include another front end ($ttop/)" ;; esac ;;
  esac
}

# Every project include of the tree: "FILE<TAB>INCLUDED", both relative to the root.
project_includes() {
  local root=$1 dirs=() d file inc target
  local include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">]'
  for d in $tops; do [ -d "$root/$d" ] && dirs+=("$d"); done
  [ ${#dirs[@]} -eq 0 ] && return
  (cd "$root" && grep -rHE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' --include='*.inc' \
     '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]+[">]' "${dirs[@]}") |
  while IFS= read -r line; do
    file=${line%%:*}
    [[ ${line#*:} =~ $include_re ]] || continue
    inc=${BASH_REMATCH[1]}
    target=""
    if [ -e "$root/${inc%%/*}" ] && [[ " $tops " == *" ${inc%%/*} "* ]] && [[ $inc == */* ]]; then
      target=$inc                                    # "models/os/cpu.h": from the root
    elif [ -e "$root/${file%/*}/$inc" ]; then  # "unique_fd.h", "../cli/x.h": from the file's folder
      case $inc in
        *..* | ./*) target=$(realpath -m --relative-to="$root" "$root/${file%/*}/$inc")
                    case $target in ../*) target="" ;; esac ;;
        *) target=${file%/*}/$inc ;;
      esac
    fi
    [ -n "$target" ] && printf '%s\t%s\n' "$file" "$target"
  done
}

check_tree() {
  local root=$1 bad=0 file target why
  while IFS=$'\t' read -r file target; do
    violation "$file" "$target"
    if [ -n "$why" ]; then
      echo "layering: $file includes $target: $why"
      bad=1
    fi
  done < <(project_includes "$root")
  return $bad
}

self_test() {
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp"/{common,sim,models/hardware,models/os,models/server,models/scenario,engines/simgrid,testbed/realrun,cli,ui}
  touch "$tmp"/common/out.h "$tmp"/sim/engine.h "$tmp"/models/task_id.h "$tmp"/models/hardware/hdd.h \
        "$tmp"/models/os/cache.h "$tmp"/models/server/worker.h "$tmp"/models/scenario/world.h \
        "$tmp"/engines/simgrid/sg.h "$tmp"/cli/output.h "$tmp"/ui/view.h "$tmp"/testbed/realrun/local.h
  # Allowed: each of these points down or sideways within its own layer.
  printf '#include "sim/engine.h"\n#include "common/out.h"\n#include "models/task_id.h"\n' >"$tmp"/models/hardware/ok.cpp
  printf '#include "models/hardware/hdd.h"\n#include <vector>\n' >"$tmp"/models/os/ok.cpp
  printf '#include "models/os/cache.h"\n#include "models/server/worker.h"\n' >"$tmp"/models/scenario/ok.cpp
  printf '#include "local.h"\n#include "common/out.h"\n#include "models/scenario/world.h"\n#include "engines/simgrid/sg.h"\n' >"$tmp"/testbed/realrun/ok.cpp
  printf '#include "engines/simgrid/sg.h"\n#include "testbed/realrun/local.h"\n' >"$tmp"/cli/ok.cpp
  # Each of these runs up a layer.
  printf '#include "models/hardware/hdd.h"\n' >"$tmp"/sim/bad.cpp
  printf '#include "sim/engine.h"\n' >"$tmp"/common/bad.h
  printf '#  include <models/server/worker.h>\n' >"$tmp"/models/hardware/bad.h
  printf '#include "engines/simgrid/sg.h"\n' >"$tmp"/models/os/bad.cpp
  printf '#include "cli/output.h"\n' >"$tmp"/models/scenario/bad.cpp
  printf '#include "../../cli/output.h"\n' >"$tmp"/testbed/realrun/bad.cpp
  printf '#include "cli/output.h"\n' >"$tmp"/ui/bad.cpp
  printf '#include "models/os/cache.h"\n' >"$tmp"/models/bad.h
  local out
  out=$(check_tree "$tmp")
  local status=$?
  local want="common/bad.h includes sim/engine.h
models/bad.h includes models/os/cache.h
models/hardware/bad.h includes models/server/worker.h
models/os/bad.cpp includes engines/simgrid/sg.h
models/scenario/bad.cpp includes cli/output.h
sim/bad.cpp includes models/hardware/hdd.h
testbed/realrun/bad.cpp includes cli/output.h
ui/bad.cpp includes cli/output.h"
  local got
  got=$(sed -E 's/^layering: (.*): .*/\1/' <<<"$out" | sort)
  if [ $status -ne 1 ] || [ "$got" != "$want" ]; then
    echo "layering self-test: the checker found (exit $status):"
    echo "$out"
    echo "expected exactly:"
    echo "$want"
    return 1
  fi
  echo "layering self-test: the 8 planted upward includes found, the allowed ones passed"
}

case ${1:-} in
  --self-test) self_test ;;
  "") echo "usage: layering_test.sh SOURCE_DIR | --self-test" >&2; exit 2 ;;
  *)
    if check_tree "$1"; then
      echo "layering: every include points down"
    else
      exit 1
    fi
    ;;
esac

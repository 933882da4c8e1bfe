import { fmtMs } from "../report";
import { round } from "../stats";
import type { CpuUse } from "../workloads";

export function cpuLine(cpu: CpuUse): string {
  const server =
    cpu.serverMsPerTurn === null
      ? "server CPU not measured (no /proc)"
      : `server CPU ${fmtMs(cpu.serverMsPerTurn)} per turn (${round(cpu.serverCores ?? 0)} of a core busy)`;
  return `${server}; benchmark client CPU ${fmtMs(cpu.clientMsPerTurn)} per turn`;
}

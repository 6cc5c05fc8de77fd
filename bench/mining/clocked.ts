/** Wall time and CPU time (of every thread of the process) taken by one pass. */
export async function clocked(
  pass: () => Promise<unknown> | unknown,
): Promise<{ readonly seconds: number; readonly cpuSeconds: number }> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await pass();
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

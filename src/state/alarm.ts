/**
 * Makes sure the object's alarm fires no later than when its oldest row of some kind comes due.
 * `oldest` is that row's time (null when there is none), `after` how long rows live.
 */
export async function alarmForOldest(
	storage: DurableObjectStorage,
	oldest: number | null,
	after: number,
): Promise<void> {
	if (oldest === null) return;
	const due = oldest + after;
	const current = await storage.getAlarm();
	if (current === null || current > due) await storage.setAlarm(due);
}

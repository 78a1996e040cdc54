/**
 * Before/after view: the translation lies over the original and the slider uncovers it from the right,
 * so the same spot of both images is always compared at the same place on screen.
 */
export function setUpCompare(compare, slider) {
	const apply = () => compare.style.setProperty("--split", `${slider.value}%`);
	slider.addEventListener("input", apply);
	apply();
}

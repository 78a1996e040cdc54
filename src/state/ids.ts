/**
 * Public identifiers. An account is named by 8 Crockford base32 characters (40 random bits),
 * and the ids made under it carry that code, so a key or a record leads to its Account object
 * without an index to keep:
 *
 *   accountId  acct_7K2M9Q4X
 *   keyId      key_7K2M9Q4X_P3RA8D2Z
 *   recordId   rec_01JDQ3Z6Y87K2M9Q4XP3RA8D2Z   (a ULID: 10 time chars, then the account code and 8 random chars)
 */

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE = /^[0-9A-HJKMNP-TV-Z]{8}$/;

function randomChars(count: number): string {
	const bytes = crypto.getRandomValues(new Uint8Array(count));
	let out = "";
	for (const b of bytes) out += CROCKFORD[b & 31];
	return out;
}

function timeChars(ms: number): string {
	let out = "";
	let rest = ms;
	for (let i = 0; i < 10; i++) {
		out = CROCKFORD[rest % 32] + out;
		rest = Math.floor(rest / 32);
	}
	return out;
}

export function newAccountId(): string {
	return `acct_${randomChars(8)}`;
}

export function newKeyId(accountId: string): string {
	return `key_${accountCode(accountId)}_${randomChars(8)}`;
}

export function newRecordId(accountId: string, now: number): string {
	return `rec_${timeChars(now)}${accountCode(accountId)}${randomChars(8)}`;
}

function accountCode(accountId: string): string {
	return accountId.slice("acct_".length);
}

export function isAccountId(id: string): boolean {
	return id.startsWith("acct_") && CODE.test(id.slice(5));
}

/** The account a keyId or recordId was made under, or undefined when the id is not one of ours. */
export function accountOf(id: string): string | undefined {
	let code: string | undefined;
	if (/^key_[0-9A-Z]{8}_[0-9A-Z]{8}$/.test(id)) code = id.slice(4, 12);
	else if (/^rec_[0-9A-Z]{26}$/.test(id)) code = id.slice(14, 22);
	return code && CODE.test(code) ? `acct_${code}` : undefined;
}

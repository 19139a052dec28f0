/** Account identifiers that look real: UAE IBANs with correct ISO 13616 check digits. */
import type { Rng } from './prng.js';

/** ISO 7064 MOD 97-10 check digits of a country code and BBAN. */
function ibanCheckDigits(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`;
  const numeric = [...rearranged].map((ch) => (/[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch)).join('');
  const remainder = Number(BigInt(numeric) % 97n);
  return String(98 - remainder).padStart(2, '0');
}

/** A UAE IBAN (23 characters): AE, check digits, 3-digit bank code, 16-digit account number. */
export function uaeIban(bankCode: string, accountNumber: string): string {
  const bban = `${bankCode}${accountNumber}`;
  return `AE${ibanCheckDigits('AE', bban)}${bban}`;
}

/** True when an IBAN's check digits are right (used by the tests). */
export function isValidIban(iban: string): boolean {
  const country = iban.slice(0, 2);
  return ibanCheckDigits(country, iban.slice(4)) === iban.slice(2, 4);
}

/** A random UAE IBAN at the given bank. */
export function randomIban(rng: Rng, bankCode: string): string {
  return uaeIban(bankCode, rng.digits(16));
}

/** A masked card number (first 4 and last 4 digits shown), 16 characters. */
export function maskedPan(rng: Rng, firstDigit: '4' | '5'): string {
  return `${firstDigit}${rng.digits(3)}********${rng.digits(4)}`;
}

import type { Page } from "playwright-core";

/** Fills the contact form as a visitor would (labels from product-rules §2). */
export async function fillContact(page: Page, subject: string, message = "I would like to distribute my new album <b>worldwide</b>.") {
  await page.getByLabel("Full Name", { exact: true }).fill("Ada Lovelace");
  await page.getByLabel("Email Address", { exact: true }).fill("ada@example.org");
  await page.getByLabel("Subject", { exact: true }).fill(subject);
  await page.getByLabel("Message", { exact: true }).fill(message);
}

/** Fills the licensing form's required fields as a visitor would. */
export async function fillLicensing(page: Page, company: string, description = "A documentary about early computing. We need two cues for the opening titles.") {
  await page.getByLabel("Full Name", { exact: true }).fill("Grace Hopper");
  await page.getByLabel("Email Address", { exact: true }).fill("grace@example.org");
  await page.getByLabel("Company/Production", { exact: true }).fill(company);
  await page.getByLabel("Project Type", { exact: true }).selectOption("documentary");
  await page.getByLabel("Budget Range", { exact: true }).selectOption("5000-10000");
  await page.getByLabel("Timeline", { exact: true }).selectOption("1-month");
  await page.getByLabel("Project Description", { exact: true }).fill(description);
}

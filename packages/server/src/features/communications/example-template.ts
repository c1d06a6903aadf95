/**
 * The email template example (spec 001 section 2, `GET /GZContent/EmailTemplates/template-1.html`): a complete,
 * responsive email in tables with inline styles (what Outlook renders), images at full width below 520 px (spec
 * 001 section 9), and the merge chips the editors insert. Staff start a template from it.
 */
export const EXAMPLE_TEMPLATE_BODY = `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color: #f1f3f5">
<tr><td align="center" style="padding: 24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" class="gh-container" style="background-color: #ffffff; max-width: 600px; width: 100%">
<tr><td style="background-color: #1c7ed6; padding: 24px; color: #ffffff; font-size: 22px; font-weight: bold"><span data-merge-field="Association.Name" data-merge-params="{}">Association.Name</span></td></tr>
<tr><td style="padding: 24px; font-size: 16px; line-height: 1.5; color: #212529">
<p><span data-merge-field="Contact.Salutation" data-merge-params="{&quot;Style&quot;:&quot;informal&quot;,&quot;Default&quot;:&quot;Dear member&quot;}">Contact.Salutation (Style: informal)</span>,</p>
<p>Thank you for being part of our association. Here is what is happening this month.</p>
<h2 style="font-size: 18px; color: #1c7ed6">Upcoming</h2>
<p>Our annual meeting is coming up: members vote on the board and next year's plans. We hope to see you there.</p>
<p style="text-align: center; padding: 12px"><a href="https://example.org/events" style="background-color: #1c7ed6; color: #ffffff; padding: 12px 24px; text-decoration: none; font-weight: bold">See all events</a></p>
<p>Kind regards,<br><span data-merge-field="Sender.DisplayName" data-merge-params="{&quot;Default&quot;:&quot;&quot;}">Sender.DisplayName</span></p>
</td></tr>
<tr><td style="padding: 16px 24px; font-size: 12px; color: #868e96; background-color: #f8f9fa">You receive this email as a contact of <span data-merge-field="Association.Name" data-merge-params="{}">Association.Name</span>. <a href="merge:Mailing.UnsubscribeUrl" style="color: #868e96">Unsubscribe</a></td></tr>
</table>
</td></tr>
</table>`;

/** The example as a page of its own: the body in a document with the responsive rules email clients honour. */
export function exampleTemplatePage(body: string): string {
  return `<!DOCTYPE html>
<html lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<title>Email template example</title>
<style>
  body { margin: 0; padding: 0; font-family: Arial, Helvetica, sans-serif; }
  img { border: 0; max-width: 100%; height: auto; }
  @media only screen and (max-width: 520px) {
    .gh-container { width: 100% !important; }
    img { width: 100% !important; }
  }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

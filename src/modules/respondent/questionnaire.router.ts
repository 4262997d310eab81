import type { Routes } from '../../platform/http/routes';
import type { PageKit } from './page-kit';
import { errorPage, stepPage, unknownPage } from './pages/respondent.pages';
import { StepForm } from './respondent.forms';
import { contactQuery, codeParams as params, tags } from './respondent.schemas';
import { type RespondentDeps, saveStep } from './respondent.service';
import { submitAnswers } from './submission';

/** The questionnaire's form posts: save a page of answers, then submit them. */
export function questionnaireRoutes(routes: Routes, deps: RespondentDeps, kit: PageKit): void {
  routes.page(
    {
      method: 'post',
      path: '/action/{code}',
      summary: 'Save one page of answers (form post), then go to the next or previous page',
      description:
        'Fields: `_csrf`, `step`, `nav` (`next` checks the page’s required questions; `back` and `save` keep what is valid), and `q.<questionId>` per answer (repeated for multiple choice; a question that takes one answer refuses two). Invalid answers re-render the page with the problems (400) and save nothing.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      form: StepForm,
      documentForm: false,
      errorPage,
      csrfFailed: kit.expired,
      statuses: {
        303: 'Saved: go to the next page',
        400: 'Problems with the answers',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async (page) => {
      const { params: p, form, req, res } = page;
      const { step: stepIndex, nav } = form;
      const result = await saveStep(
        deps,
        p.code,
        kit.respondentOf(req),
        Number.isInteger(stepIndex) ? stepIndex : -1,
        form.answers,
        nav === 'next',
      );
      const stop = await kit.gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const view = result.view;
      const ctx = kit.contextOf(page, view);
      const step = view.steps[stepIndex];
      const base = `/action/${view.action.code}?lang=${ctx.lang}`;
      if (!step || !result.saved) {
        if (step && result.issues.length > 0)
          return stepPage(view, ctx, step, { issues: result.issues, values: result.sent });
        return { redirect: base };
      }
      if (nav === 'save') return { redirect: `${base}&step=${step.index}&saved=1` };
      if (nav === 'back') return { redirect: `${base}&step=${Math.max(step.index - 1, 0)}` };
      return {
        redirect:
          step.index + 1 < view.steps.length ? `${base}&step=${step.index + 1}` : `${base}&step=review`,
      };
    },
  );

  routes.page(
    {
      method: 'post',
      path: '/action/{code}/submit',
      summary: 'Submit the questionnaire (form post): creates the session and completes the action',
      description:
        'Fields: `_csrf`. Creates the session (or its next version after a reopen) and completes the action through the one use case that completes actions. A campaign visitor gets their own session; the campaign stays open.',
      tags,
      params,
      audience: 'contact',
      query: contactQuery,
      errorPage,
      csrfFailed: kit.expired,
      statuses: {
        303: 'Submitted',
        400: 'A required answer is missing',
        403: 'Form expired (CSRF)',
        404: 'Unknown code',
        410: 'Withdrawn or expired',
        429: 'Too many unknown codes from this address',
      },
    },
    async (page) => {
      const { params: p, query, req, res } = page;
      const result = await submitAnswers(deps, p.code, kit.respondentOf(req), query.lang);
      const stop = await kit.gate(req, res, result.view);
      if (stop || result.view.outcome !== 'ok') return stop ?? unknownPage();
      const ctx = kit.contextOf(page, result.view);
      if (result.incomplete) {
        const step = result.view.steps[result.incomplete.stepIndex]!;
        return stepPage(result.view, ctx, step, { issues: result.incomplete.issues });
      }
      return { redirect: `/action/${result.view.action.code}?lang=${ctx.lang}` };
    },
  );
}

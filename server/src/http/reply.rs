//! Replies: a typed body as JSON with its status, and every refusal as the contract's
//! `{"error", "message"}` with the status [`crate::refusals`] gives its code.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::refusals::{self, Refused};
use crate::wire::{Code, Refusal};

/// A reply: a typed body as JSON with its status.
pub(crate) fn json(status: StatusCode, body: &impl Serialize) -> Response {
    let text = serde_json::to_string(body).unwrap_or_default();
    rendered(status, JSON, text)
}

/// The content type of a JSON reply.
pub(crate) const JSON: &str = "application/json";

/// A reply of a body already rendered, with its status and content type.
pub(crate) fn rendered(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<String>,
) -> Response {
    (status, [(header::CONTENT_TYPE, content_type)], body.into()).into_response()
}

/// A refusal as the contract's error reply, with its HTTP status.
pub(crate) struct ApiError {
    status: StatusCode,
    refusal: Refusal,
}

impl ApiError {
    /// A refusal with `code` saying `message`, with the code's status.
    pub(crate) fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            status: refusals::status(code),
            refusal: Refusal::new(code, message),
        }
    }

    /// A refusal with a status other than its code's (a body the HTTP layer could not
    /// read: it says why).
    pub(crate) fn with_status(
        status: StatusCode,
        code: Code,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            refusal: Refusal::new(code, message),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        crate::telemetry::refused(self.refusal.code.word());
        json(self.status, &self.refusal.body())
    }
}

impl<E: Refused> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        if let Some(cause) = e.internal() {
            tracing::error!(error = %cause, "a request failed");
        }
        let refusal = e.refusal();
        ApiError {
            status: refusals::status(refusal.code),
            refusal,
        }
    }
}

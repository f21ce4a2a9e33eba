//! One request per platform operation, each pinned to the profile named in it: there is no
//! "the active profile" here, so a profile switched in between never receives a call. What a
//! successful call teaches about customers and products is learned (and shared with a team
//! server) in the background.

use std::sync::Arc;

use crate::core::catalog::entries::DirectoryEntry;
use crate::core::catalog::learn::{self, Learned};
use crate::core::request::{Request, Services};
use crate::core::{Call, CoreError};
use client::{Client, Operation, write::lock_refusals};
use wire::{
    ActivityResponse, AssetList, BatchOrderRequest, BatchOrderResult, BindRequest, ClaimRequest,
    CreatedEnterprise, Customer, CustomerQuery, EnterpriseRequest, LockRequest, LockResult,
};

/// The profile's client.
async fn client(services: &Services, profile: &str) -> Result<Arc<Client>, CoreError> {
    services.0.client(profile).await
}

/// Learned from a call's answer: the customers it names.
fn customers(customers: Vec<DirectoryEntry>) -> Learned {
    Learned {
        customers,
        ..Learned::default()
    }
}

/// Operation 1: binds a customer to an enterprise.
#[derive(Debug, Clone)]
pub struct Bind {
    pub profile: String,
    pub request: BindRequest,
}

impl Request for Bind {
    type Reply = Customer;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Bind)
    }

    async fn serve(self, services: Services) -> Result<Customer, CoreError> {
        let answer = client(&services, &self.profile)
            .await?
            .bind(&self.request)
            .await?;
        let learned = customers(vec![learn::customer_bound(&self.request, &answer)]);
        services.0.learned(&self.profile, learned).await;
        Ok(answer)
    }
}

/// Operation 2: creates an enterprise.
#[derive(Debug, Clone)]
pub struct CreateEnterprise {
    pub profile: String,
    pub request: EnterpriseRequest,
}

impl Request for CreateEnterprise {
    type Reply = CreatedEnterprise;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::CreateEnterprise)
    }

    async fn serve(self, services: Services) -> Result<CreatedEnterprise, CoreError> {
        let created = client(&services, &self.profile)
            .await?
            .create_enterprise(&self.request)
            .await?;
        let learned = customers(vec![learn::enterprise_created(&self.request, &created)]);
        services.0.learned(&self.profile, learned).await;
        Ok(created)
    }
}

/// Operation 3: the customers a channel's id names.
#[derive(Debug, Clone)]
pub struct QueryCustomers {
    pub profile: String,
    pub query: CustomerQuery,
}

impl Request for QueryCustomers {
    type Reply = Vec<Customer>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::QueryCustomers)
    }

    async fn serve(self, services: Services) -> Result<Vec<Customer>, CoreError> {
        let found = client(&services, &self.profile)
            .await?
            .query_customers(&self.query)
            .await?;
        let learned = customers(found.iter().map(learn::customer_of_answer).collect());
        services.0.learned(&self.profile, learned).await;
        Ok(found)
    }
}

/// Operation 4: changes an enterprise.
#[derive(Debug, Clone)]
pub struct UpdateEnterprise {
    pub profile: String,
    pub request: EnterpriseRequest,
}

impl Request for UpdateEnterprise {
    type Reply = ();

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::UpdateEnterprise)
    }

    async fn serve(self, services: Services) -> Result<(), CoreError> {
        let client = client(&services, &self.profile).await?;
        Ok(client.update_enterprise(&self.request).await?)
    }
}

/// Operation 5: a batch of license orders.
#[derive(Debug, Clone)]
pub struct BatchOrder {
    pub profile: String,
    pub batch: BatchOrderRequest,
}

impl Request for BatchOrder {
    type Reply = Vec<BatchOrderResult>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::BatchOrder)
    }

    async fn serve(self, services: Services) -> Result<Vec<BatchOrderResult>, CoreError> {
        let results = client(&services, &self.profile)
            .await?
            .batch_order(&self.batch)
            .await?;
        let learned = Learned::of_accepted(&self.batch, &results);
        services.0.learned(&self.profile, learned).await;
        Ok(results)
    }
}

/// Operation 6: disables the locks, as `operator` (None: the profile's operator identity).
#[derive(Debug, Clone)]
pub struct Lock {
    pub profile: String,
    pub nums: Vec<String>,
    pub operator: Option<String>,
}

impl Request for Lock {
    type Reply = Vec<LockResult>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Lock)
    }

    async fn serve(self, services: Services) -> Result<Vec<LockResult>, CoreError> {
        let request = lock_request(&services, &self.profile, self.nums, self.operator);
        let client = client(&services, &self.profile).await?;
        Ok(client.lock(&request).await?)
    }
}

/// Operation 7: enables the locks, as `operator` (None: the profile's).
#[derive(Debug, Clone)]
pub struct Unlock {
    pub profile: String,
    pub nums: Vec<String>,
    pub operator: Option<String>,
}

impl Request for Unlock {
    type Reply = Vec<LockResult>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Unlock)
    }

    async fn serve(self, services: Services) -> Result<Vec<LockResult>, CoreError> {
        let request = lock_request(&services, &self.profile, self.nums, self.operator);
        let client = client(&services, &self.profile).await?;
        Ok(client.unlock(&request).await?)
    }
}

/// The locks' request, as the operator given or else the profile's.
fn lock_request(
    services: &Services,
    profile: &str,
    nums: Vec<String>,
    operator: Option<String>,
) -> LockRequest {
    let operator = operator.unwrap_or_else(|| {
        services
            .0
            .profile(profile)
            .map(|p| p.operator_identity)
            .unwrap_or_default()
    });
    LockRequest {
        asset_nums: nums,
        operator_identity: Some(operator),
    }
}

/// Operation 8: an enterprise's assets.
#[derive(Debug, Clone)]
pub struct Assets {
    pub profile: String,
    pub enterprise_global_id: String,
    pub extend_code: Option<String>,
}

impl Request for Assets {
    type Reply = AssetList;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Assets)
    }

    async fn serve(self, services: Services) -> Result<AssetList, CoreError> {
        let list = client(&services, &self.profile)
            .await?
            .assets(&self.enterprise_global_id, self.extend_code.as_deref())
            .await?;
        // The answer's bytes are gone; a large one leaves free pages behind.
        if list.len() >= crate::core::memory::BIG_LISTING {
            crate::core::memory::give_back_soon();
        }
        let enterprise = &self.enterprise_global_id;
        let named = list.customer_ids().into_iter().map(|id| DirectoryEntry {
            customer_id: Some(id.to_owned()),
            enterprise_global_id: Some(enterprise.clone()),
            ..DirectoryEntry::default()
        });
        services
            .0
            .learned(&self.profile, customers(named.collect()))
            .await;
        Ok(list)
    }
}

/// Operation 9: new asset numbers.
#[derive(Debug, Clone)]
pub struct Shellnums {
    pub profile: String,
    pub size: i32,
}

impl Request for Shellnums {
    type Reply = Vec<String>;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Shellnums)
    }

    async fn serve(self, services: Services) -> Result<Vec<String>, CoreError> {
        let client = client(&services, &self.profile).await?;
        Ok(client.shellnums(self.size).await?)
    }
}

/// Operation 10: an activity's claim.
#[derive(Debug, Clone)]
pub struct Claim {
    pub profile: String,
    pub request: ClaimRequest,
}

impl Request for Claim {
    type Reply = ActivityResponse;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    fn operation(&self) -> Option<Operation> {
        Some(Operation::Claim)
    }

    async fn serve(self, services: Services) -> Result<ActivityResponse, CoreError> {
        let client = client(&services, &self.profile).await?;
        Ok(client.claim(&self.request).await?)
    }
}

/// A call kept to send later, sent now: answers the refusal inside its answer, if any (locks
/// not done). Only batches and locks are kept.
pub(in crate::core) async fn send_kept(
    services: &Services,
    profile: String,
    call: Call,
) -> Result<Option<String>, CoreError> {
    let services = services.clone();
    match call {
        Call::BatchOrder(batch) => BatchOrder { profile, batch }
            .serve(services)
            .await
            .map(|_| None),
        Call::Lock { nums, operator } => Lock {
            profile,
            nums,
            operator,
        }
        .serve(services)
        .await
        .map(|results| lock_refusals(&results)),
        Call::Unlock { nums, operator } => Unlock {
            profile,
            nums,
            operator,
        }
        .serve(services)
        .await
        .map(|results| lock_refusals(&results)),
        _ => Err(crate::core::queue::store::QueueError::NotQueueable.into()),
    }
}

defmodule Stash.MixProject do
  use Mix.Project
  def project, do: [app: :stash, version: "0.1.0"]
end

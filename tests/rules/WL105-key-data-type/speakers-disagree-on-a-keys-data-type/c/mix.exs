defmodule C.MixProject do
end
